import { describe, expect, it } from 'vitest';
import { anthropicByteObserver, openAiByteObserver } from '../../../src/sse/byte-observer';
import { parseEvent } from '../../../src/sse/framer';
import { anthropicObserver, openAiObserver, type StreamObserver } from '../../../src/sse/observer';

const enc = (s: string) => new TextEncoder().encode(s);
const data = (body: unknown) => `data: ${typeof body === 'string' ? body : JSON.stringify(body)}\n\n`;
const named = (event: string, body: unknown) => `event: ${event}\n${data(body)}`;
const delta = (content: string) => data({ choices: [{ index: 0, delta: { content } }] });

/** Runs the same events through both observers; returns the verdicts of each and the observers. */
function both(events: string[], full: StreamObserver, fast: StreamObserver) {
  const verdicts = events.map((e) => [full.observe(parseEvent(enc(e))), fast.observeBytes!(enc(e))]);
  return { full: verdicts.map((v) => v[0]), fast: verdicts.map((v) => v[1]) };
}

function expectSameEnd(full: StreamObserver, fast: StreamObserver) {
  expect(fast.done).toBe(full.done);
  expect(fast.usage).toEqual(full.usage);
  expect(fast.upstreamError).toBe(full.upstreamError);
}

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

describe('anthropicByteObserver', () => {
  it('agrees with the parsing observer on a whole stream', () => {
    const events = [
      named('message_start', {
        type: 'message_start',
        message: { usage: { input_tokens: 10, cache_read_input_tokens: 4, output_tokens: 1 } },
      }),
      named('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      }),
      named('ping', { type: 'ping' }),
      named('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: 'Hi there' },
      }),
      named('content_block_delta', {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"city"' },
      }),
      named('content_block_stop', { type: 'content_block_stop', index: 0 }),
      named('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn' },
        usage: { output_tokens: 9 },
      }),
      named('message_stop', { type: 'message_stop' }),
    ];
    const full = anthropicObserver();
    const fast = anthropicByteObserver();
    const v = both(events, full, fast);
    expect(v.fast).toEqual(v.full);
    expectSameEnd(full, fast);
    expect(fast.usage).toEqual({ inputTokens: 14, outputTokens: 9, cachedTokens: 4 });
    expect(fast.deliveredChars).toBe(full.deliveredChars + 2);
  });

  it('records an upstream error event and flags a delta that is not a JSON object', () => {
    const fast = anthropicByteObserver();
    fast.observeBytes!(
      enc(named('error', { type: 'error', error: { type: 'overloaded_error', message: 'busy' } })),
    );
    expect(fast.upstreamError).toBe('busy');
    expect(fast.done).toBe(false);
    expect(anthropicByteObserver().observeBytes!(enc(named('content_block_delta', '{"type":')))).toBe(
      'malformed',
    );
  });
});
