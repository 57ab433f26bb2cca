import { describe, expect, it } from 'vitest';
import { directiveIn, lastTurn } from '../../workers/mock-llm/src/turn';

describe('lastTurn', () => {
  it('reads the messages after the last assistant message, skipping system ones', () => {
    const turn = lastTurn([
      { role: 'user', content: 'old' },
      { role: 'assistant', content: 'hi' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'system', content: 'ignored' },
    ]);
    expect(turn).toEqual({ text: 'a\nb', results: [] });
  });

  it('finds tool results in every format', () => {
    expect(
      lastTurn([{ role: 'user', content: [{ type: 'tool_result', content: 'anthropic' }] }]).results,
    ).toEqual(['anthropic']);
    expect(
      lastTurn([
        { role: 'user', content: [{ type: 'tool_result', content: [{ type: 'text', text: 'blocks' }] }] },
      ]).results,
    ).toEqual(['blocks']);
    expect(lastTurn([{ role: 'tool', content: 'openai' }]).results).toEqual(['openai']);
    expect(
      lastTurn([
        { role: 'user', content: [{ functionResponse: { name: 'f', response: { output: 'gemini' } } }] },
      ]).results,
    ).toEqual(['gemini']);
    expect(
      lastTurn([
        { role: 'user', content: [{ toolResult: { toolUseId: 't', content: [{ json: { b: 1 } }] } }] },
      ]).results,
    ).toEqual(['{"b":1}']);
  });
});

describe('directiveIn', () => {
  it('reads a TOOL line with a JSON object, anywhere in the text', () => {
    expect(directiveIn('please\nTOOL Write {"file_path":"/tmp/x","content":"hi"}\nthanks')).toEqual({
      name: 'Write',
      input: { file_path: '/tmp/x', content: 'hi' },
    });
  });

  it('ignores lines that are not a directive', () => {
    expect(directiveIn('TOOL Write [1,2]')).toBeUndefined();
    expect(directiveIn('TOOL Write {not json}')).toBeUndefined();
    expect(directiveIn('use the TOOL Write {"a":1} inline')).toBeUndefined();
    expect(directiveIn('nothing here')).toBeUndefined();
  });
});
