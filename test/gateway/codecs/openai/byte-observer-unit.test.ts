import { describe, expect, it } from 'vitest';
import { openAiByteObserver } from '../../../../src/codecs/openai/byte-observer';
import { openAiObserver } from '../../../../src/codecs/openai/observer';
import { enc, data, delta, both, expectSameEnd } from '../byte-observer-helpers';

describe('openAiByteObserver', () => {
  const usage = data({ id: 'x', choices: [], usage: { prompt_tokens: 7, completion_tokens: 3 } });
  const toolCall = data({
    choices: [{ delta: { tool_calls: [{ index: 0, function: { name: 'f', arguments: '{"a": 1}' } }] } }],
  });

  for (const stripUsage of [true, false])
    it(`agrees with the parsing observer on a whole stream (stripUsage ${stripUsage})`, () => {
      const events = [
        data({ choices: [{ delta: { role: 'assistant', content: null } }] }),
        delta('Hello'),
        ': keep-alive\n\n',
        delta(' world, "quoted": yes'),
        toolCall,
        data({ choices: [{ delta: {} }], usage: null }),
        usage,
        'data: [DONE]\r\n\r\n',
      ];
      const full = openAiObserver({ stripUsage });
      const fast = openAiByteObserver({ stripUsage });
      const v = both(events, full, fast);
      expect(v.fast).toEqual(v.full);
      expect(v.fast[6]).toBe(stripUsage ? 'drop' : 'forward');
      expectSameEnd(full, fast);
      // Plain ASCII content: the byte count is exact except for the escaped quotes (one byte more each).
      expect(fast.deliveredChars).toBe(full.deliveredChars + 4);
    });

  it('never counts fewer delivered characters than the text holds', () => {
    const fast = openAiByteObserver({ stripUsage: false });
    const text = 'é€😀\n\t\\ done';
    fast.observeBytes!(enc(delta(text)));
    expect(fast.deliveredChars).toBeGreaterThanOrEqual(text.length);
    expect(fast.deliveredChars).toBeLessThanOrEqual(enc(JSON.stringify(text)).length);
  });

  it('does not take text that reads like a key for one', () => {
    const fast = openAiByteObserver({ stripUsage: true });
    expect(fast.observeBytes!(enc(delta('{"usage": {"total_tokens": 1}, "error": 2}')))).toBe('forward');
    expect(fast.usage).toBeNull();
    expect(fast.upstreamError).toBeNull();
  });

  it('records an upstream error event and flags data that is not a JSON object', () => {
    const fast = openAiByteObserver({ stripUsage: false });
    expect(fast.observeBytes!(enc(data({ error: { message: 'overloaded' } })))).toBe('forward');
    expect(fast.upstreamError).toBe('overloaded');
    for (const bad of ['{"id":', '[1]', 'hello', '{"id":"x",'])
      expect(openAiByteObserver({ stripUsage: false }).observeBytes!(enc(data(bad)))).toBe('malformed');
  });

  it('reads usage wherever a usage object comes, even beside content', () => {
    const fast = openAiByteObserver({ stripUsage: true });
    const both = data({
      choices: [{ delta: { content: 'ab' } }],
      usage: { prompt_tokens: 1, completion_tokens: 2 },
    });
    expect(fast.observeBytes!(enc(both))).toBe('forward');
    expect(fast.usage).toMatchObject({ inputTokens: 1, outputTokens: 2 });
    expect(fast.deliveredChars).toBe(2);
  });
});
