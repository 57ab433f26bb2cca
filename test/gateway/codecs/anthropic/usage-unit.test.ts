/** Anthropic's usage object read into and written from the canonical counts (src/codecs/anthropic/usage.ts). */
import { describe, expect, it } from 'vitest';
import { anthropicUpstream } from '../../../../src/codecs/anthropic/index';
import { fromAnthropicUsage, toAnthropicUsage } from '../../../../src/codecs/anthropic/usage';
import type { StreamEvent } from '../../../../src/codecs/ir';
import { merge, ZERO } from '../../../../src/codecs/usage';

describe('Anthropic usage', () => {
  it('adds cache reads and writes back to input_tokens, and reads the 1-hour writes from cache_creation', () => {
    const usage = {
      input_tokens: 21,
      output_tokens: 393,
      cache_read_input_tokens: 188086,
      cache_creation_input_tokens: 2000,
      cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1500 },
    };
    expect(fromAnthropicUsage(usage)).toEqual({
      input: 21 + 188086 + 2000,
      output: 393,
      cacheRead: 188086,
      cacheWrite: 2000,
      cacheWrite1h: 1500,
    });
  });

  it('reads only the fields an event carries (message_delta repeats the output alone)', () => {
    expect(fromAnthropicUsage({ output_tokens: 15 })).toEqual({ output: 15 });
  });

  it('writes input_tokens without the cache counts, and the writes split by TTL in cache_creation', () => {
    const canonical = {
      input: 4000,
      output: 50,
      cacheRead: 1000,
      cacheWrite: 2500,
      cacheWrite1h: 2000,
      reasoning: 0,
    };
    expect(toAnthropicUsage(canonical)).toEqual({
      input_tokens: 500,
      output_tokens: 50,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 2500,
      cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 2000 },
    });
    expect(merge(ZERO, fromAnthropicUsage(toAnthropicUsage(canonical)))).toEqual(canonical);
  });

  it('keeps the 1-hour writes of message_start when message_delta reports the output', () => {
    const decoder = anthropicUpstream.streamDecoder();
    const start = {
      type: 'message_start',
      message: {
        id: 'msg_1',
        model: 'claude-sonnet-4-5',
        usage: {
          input_tokens: 10,
          output_tokens: 1,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 300,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 300 },
        },
      },
    };
    const delta = { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42 } };
    const events = [start, delta].flatMap((body) => {
      const out = decoder.decode({ event: body.type, data: JSON.stringify(body) });
      return out === 'malformed' ? [] : out;
    });
    const usage = events
      .filter((e): e is Extract<StreamEvent, { type: 'usage' }> => e.type === 'usage')
      .reduce((u, e) => merge(u, e.usage), ZERO);
    expect(usage).toEqual({
      input: 310,
      output: 42,
      cacheRead: 0,
      cacheWrite: 300,
      cacheWrite1h: 300,
      reasoning: 0,
    });
  });
});
