import { describe, expect, it } from 'vitest';
import { anthropicObserver } from '../../../../src/codecs/anthropic/observer';

const ev = (data: string, event: string | null = null) => ({ event, data });

describe('anthropicObserver', () => {
  it('reads input tokens from message_start and output tokens from message_delta, done at message_stop', () => {
    const o = anthropicObserver();
    o.observe(
      ev(
        JSON.stringify({ type: 'message_start', message: { usage: { input_tokens: 11, output_tokens: 1 } } }),
        'message_start',
      ),
    );
    o.observe(
      ev(
        JSON.stringify({ type: 'content_block_delta', delta: { type: 'text_delta', text: 'abc' } }),
        'content_block_delta',
      ),
    );
    o.observe(ev(JSON.stringify({ type: 'message_delta', usage: { output_tokens: 5 } }), 'message_delta'));
    expect(o.done).toBe(false);
    o.observe(ev(JSON.stringify({ type: 'message_stop' }), 'message_stop'));
    expect(o.usage).toEqual({
      inputTokens: 11,
      outputTokens: 5,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
    expect(o.deliveredChars).toBe(3);
    expect(o.done).toBe(true);
  });

  it('counts prompt-cache reads and writes as input, cache reads as cached (Anthropic leaves both out of input_tokens)', () => {
    const o = anthropicObserver();
    const usage = {
      input_tokens: 10,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 20,
      output_tokens: 1,
    };
    o.observe(ev(JSON.stringify({ type: 'message_start', message: { usage } }), 'message_start'));
    o.observe(ev(JSON.stringify({ type: 'message_delta', usage: { output_tokens: 7 } }), 'message_delta'));
    expect(o.usage).toEqual({
      inputTokens: 130,
      outputTokens: 7,
      cachedTokens: 100,
      cacheWriteTokens: 20,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('reads the 1-hour part of the cache writes from cache_creation, kept across message_delta', () => {
    const o = anthropicObserver();
    const usage = {
      input_tokens: 10,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 300,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
      output_tokens: 1,
    };
    o.observe(ev(JSON.stringify({ type: 'message_start', message: { usage } }), 'message_start'));
    o.observe(ev(JSON.stringify({ type: 'message_delta', usage: { output_tokens: 9 } }), 'message_delta'));
    expect(o.usage).toEqual({
      inputTokens: 310,
      outputTokens: 9,
      cachedTokens: 0,
      cacheWriteTokens: 300,
      cacheWrite1hTokens: 200,
      reasoningTokens: 0,
    });
  });

  it('writes its error frame as an Anthropic error event', () => {
    expect(anthropicObserver().errorFrame('cut', 'stream_incomplete')).toMatch(
      /^event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"cut"\}\}\n\n$/,
    );
  });
});
