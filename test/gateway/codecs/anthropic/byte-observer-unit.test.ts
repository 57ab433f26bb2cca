import { describe, expect, it } from 'vitest';
import { anthropicByteObserver } from '../../../../src/codecs/anthropic/byte-observer';
import { anthropicObserver } from '../../../../src/codecs/anthropic/observer';
import { enc, named, both, expectSameEnd } from '../byte-observer-helpers';

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
    expect(fast.usage).toEqual({
      inputTokens: 14,
      outputTokens: 9,
      cachedTokens: 4,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
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
