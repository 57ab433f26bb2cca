import { describe, expect, it } from 'vitest';
import { openAiObserver } from '../../../../src/codecs/openai/observer';

const ev = (data: string, event: string | null = null) => ({ event, data });

describe('openAiObserver', () => {
  const usageChunk = JSON.stringify({
    id: 'x',
    choices: [],
    usage: { prompt_tokens: 7, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 2 } },
  });

  it('reads usage and drops the usage chunk when the client did not ask for it', () => {
    const o = openAiObserver({ stripUsage: true });
    expect(o.observe(ev(JSON.stringify({ choices: [{ delta: { content: 'Hi' } }] })))).toBe('forward');
    expect(o.observe(ev(usageChunk))).toBe('drop');
    expect(o.observe(ev('[DONE]'))).toBe('forward');
    expect(o.usage).toEqual({
      inputTokens: 7,
      outputTokens: 3,
      cachedTokens: 2,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
    expect(o.deliveredChars).toBe(2);
    expect(o.done).toBe(true);
  });

  it('forwards the usage chunk when the client asked for it', () => {
    const o = openAiObserver({ stripUsage: false });
    expect(o.observe(ev(usageChunk))).toBe('forward');
  });

  it('flags a chunk that is not JSON as malformed', () => {
    expect(openAiObserver({ stripUsage: false }).observe(ev('{"id":'))).toBe('malformed');
  });

  it('records an error the upstream reports inside the stream', () => {
    const o = openAiObserver({ stripUsage: false });
    o.observe(ev(JSON.stringify({ error: { message: 'overloaded' } })));
    expect(o.upstreamError).toBe('overloaded');
  });

  it('counts tool-call argument text as delivered', () => {
    const o = openAiObserver({ stripUsage: false });
    o.observe(
      ev(
        JSON.stringify({
          choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] } }],
        }),
      ),
    );
    expect(o.deliveredChars).toBe(7);
  });
});
