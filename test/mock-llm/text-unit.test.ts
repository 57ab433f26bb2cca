import { describe, expect, it } from 'vitest';
import { complete, contentSeed } from '../../workers/mock-llm/src/completion';
import { DEFAULT_CONTROLS } from '../../workers/mock-llm/src/controls';
import { canonicalJson, fnv1a } from '../../workers/mock-llm/src/hash';
import {
  contentText,
  echoTokens,
  embeddingInputTokens,
  generatedTokens,
  lastUserText,
  promptTokens,
} from '../../workers/mock-llm/src/text';

describe('echoTokens', () => {
  it.each([
    ['hello world', ['hello', ' world']],
    ['  lead and trail  ', ['  lead', ' and', ' trail', '  ']],
    ['tabs\tand\nnewlines', ['tabs', '\tand', '\nnewlines']],
    ['   ', ['   ']],
    ['', []],
  ])('splits %j into tokens that concatenate back to it', (text, tokens) => {
    expect(echoTokens(text)).toEqual(tokens);
    expect(echoTokens(text).join('')).toBe(text);
  });
});

describe('generatedTokens', () => {
  it('is deterministic for a seed and starts without a leading space', () => {
    const a = generatedTokens(42, 20);
    expect(generatedTokens(42, 20)).toEqual(a);
    expect(a[0]!.startsWith(' ')).toBe(false);
    expect(a.slice(1).every((t) => /^ \S+$/.test(t))).toBe(true);
    expect(generatedTokens(43, 20)).not.toEqual(a);
  });

  it('gives a prefix of the same sequence for fewer tokens', () => {
    expect(generatedTokens(7, 5)).toEqual(generatedTokens(7, 16).slice(0, 5));
  });
});

describe('promptTokens', () => {
  it('charges 4 + ceil(chars/4) per message plus 3', () => {
    expect(promptTokens([{ role: 'user', content: 'abcd' }])).toBe(3 + 4 + 1);
    expect(promptTokens([{ role: 'user', content: 'abcde' }])).toBe(3 + 4 + 2);
    expect(
      promptTokens([
        { role: 'assistant', content: null },
        { role: 'user', content: '' },
      ]),
    ).toBe(3 + 4 + 4);
  });

  it('counts only the text parts of array content', () => {
    const content = [
      { type: 'text', text: 'abc' },
      { type: 'image_url', image_url: { url: 'https://x/y.png' } },
      { type: 'text', text: 'defgh' },
    ];
    expect(contentText(content)).toBe('abcdefgh');
    expect(promptTokens([{ role: 'user', content }])).toBe(3 + 4 + 2);
  });
});

describe('lastUserText and embeddingInputTokens', () => {
  it('takes the last user message', () => {
    expect(
      lastUserText([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
      ]),
    ).toBe('c');
    expect(lastUserText([{ role: 'system', content: 'a' }])).toBe('');
  });

  it('charges ceil(chars/4) for text and one per token id', () => {
    expect(embeddingInputTokens('abcdefghi')).toBe(3);
    expect(embeddingInputTokens([1, 2, 3, 4, 5])).toBe(5);
  });
});

describe('hashing', () => {
  it('ignores key order in canonical JSON', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }] })).toBe('{"a":[{"x":1,"y":2}],"b":1}');
    expect(contentSeed('m', [{ role: 'user', content: 'x' }])).toBe(
      contentSeed('m', [{ content: 'x', role: 'user' }]),
    );
  });

  it('computes 32-bit FNV-1a', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
  });
});

describe('complete', () => {
  const base = {
    model: 'mock',
    messages: [{ role: 'user', content: 'one two three' }],
    seed: 1,
    maxTokens: undefined,
    tools: [],
    controls: DEFAULT_CONTROLS,
  };

  it('marks truncation only when the limit cuts tokens', () => {
    expect(complete({ ...base, model: 'echo', maxTokens: 3 })).toEqual({
      kind: 'text',
      tokens: ['one', ' two', ' three'],
      truncated: false,
      reasoning: [],
    });
    expect(complete({ ...base, model: 'echo', maxTokens: 1 })).toEqual({
      kind: 'text',
      tokens: ['one'],
      truncated: true,
      reasoning: [],
    });
    expect(complete({ ...base, maxTokens: 16 })).toMatchObject({ truncated: false });
    expect(complete({ ...base, maxTokens: 15 })).toMatchObject({ truncated: true });
  });

  it('calls the first tool only when asked and offered one', () => {
    const tools = [
      { name: 'f', schema: { type: 'object', properties: { n: { type: 'integer', minimum: 2 } } } },
    ];
    expect(complete({ ...base, tools, controls: { ...DEFAULT_CONTROLS, tool_call: true } })).toEqual({
      kind: 'tool',
      name: 'f',
      input: { n: 2 },
      reasoning: [],
    });
    expect(complete({ ...base, tools }).kind).toBe('text');
  });
});
