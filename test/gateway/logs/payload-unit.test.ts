/** Payload capture: when it happens, how it is cut, and that a log event always fits in one queue message; the sink switch. */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { capturePayload, payloadForLog, payloadMaxBytes, truncateUtf8 } from '../../../src/core/payload';
import { fitMessage, MAX_MESSAGE_BYTES } from '../../../src/logs/produce/normalise';
import { chooseSink } from '../../../src/logs/produce/sink';
import { anthropicObserver } from '../../../src/codecs/anthropic/observer';
import { openAiObserver } from '../../../src/codecs/openai/observer';
import { logEvent, waitForLogs } from '../log-fixtures';

const bytes = (s: string) => new TextEncoder().encode(s).byteLength;
const noHeaders = new Headers();

describe('truncateUtf8', () => {
  it('keeps text that fits and cuts the rest between characters, never inside one', () => {
    expect(truncateUtf8('hello', 5)).toEqual({ text: 'hello', truncated: false });
    expect(truncateUtf8('hello!', 5)).toEqual({ text: 'hello', truncated: true });
    expect(truncateUtf8('ééé', 5)).toEqual({ text: 'éé', truncated: true });
    expect(truncateUtf8('a😀b', 4)).toEqual({ text: 'a', truncated: true });
    expect(truncateUtf8('a😀b', 5)).toEqual({ text: 'a😀', truncated: true });
    expect(truncateUtf8('日本語', 9)).toEqual({ text: '日本語', truncated: false });
  });
});

describe('capturePayload', () => {
  const body = { model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] };

  it('captures only for keys that opt in, and not when the request sends cf-aig-collect-log-payload: false', () => {
    expect(capturePayload({ logPayload: false }, noHeaders, body, '100')).toBeNull();
    expect(
      capturePayload(
        { logPayload: true },
        new Headers({ 'cf-aig-collect-log-payload': 'false' }),
        body,
        '100',
      ),
    ).toBeNull();
    expect(
      capturePayload(
        { logPayload: true },
        new Headers({ 'cf-aig-collect-log-payload': 'true' }),
        body,
        '100',
      ),
    ).toMatchObject({ request: JSON.stringify(body) });
  });

  it('cuts both sides to LOG_PAYLOAD_MAX_BYTES and flags it', () => {
    const capture = capturePayload({ logPayload: true }, noHeaders, { text: 'x'.repeat(500) }, '100')!;
    expect(payloadForLog(capture, 'y'.repeat(50))).toEqual({
      request: JSON.stringify({ text: 'x'.repeat(500) }).slice(0, 100),
      response: 'y'.repeat(50),
      truncated: true,
    });
    const small = capturePayload({ logPayload: true }, noHeaders, { a: 1 }, '100')!;
    expect(payloadForLog(small, 'z'.repeat(101))).toMatchObject({
      response: 'z'.repeat(100),
      truncated: true,
    });
  });

  it('defaults to 32 KiB and caps the setting at 64 KiB', () => {
    expect([
      payloadMaxBytes(undefined),
      payloadMaxBytes('nope'),
      payloadMaxBytes('1000'),
      payloadMaxBytes('10000000'),
    ]).toEqual([32_768, 32_768, 1000, 65_536]);
  });
});

describe('stream observers with capture', () => {
  it('keep the first N characters of delivered text, content and tool arguments alike', () => {
    const o = openAiObserver({ stripUsage: true, capture: 8 });
    o.observe({ event: null, data: JSON.stringify({ choices: [{ delta: { content: 'hello ' } }] }) });
    o.observe({
      event: null,
      data: JSON.stringify({
        choices: [{ delta: { tool_calls: [{ function: { arguments: '{"a":1}' } }] } }],
      }),
    });
    expect(o.captured).toBe('hello {"');
    expect(o.deliveredChars).toBe(13);
    const a = anthropicObserver({ capture: 100 });
    a.observe({
      event: 'content_block_delta',
      data: JSON.stringify({ type: 'content_block_delta', delta: { type: 'text_delta', text: 'bonjour' } }),
    });
    expect(a.captured).toBe('bonjour');
  });

  it('keep nothing when not asked', () => {
    const o = openAiObserver({ stripUsage: true });
    o.observe({ event: null, data: JSON.stringify({ choices: [{ delta: { content: 'hello' } }] }) });
    expect(o.captured).toBe('');
  });
});

describe('fitMessage', () => {
  it('leaves events without payload, or that fit, untouched', () => {
    const plain = logEvent();
    expect(fitMessage(plain)).toBe(plain);
    const small = logEvent({ payload: { request: 'a', response: 'b', truncated: false } });
    expect(fitMessage(small)).toBe(small);
  });

  it('shrinks a payload whose JSON escaping would overflow a queue message, and flags it', () => {
    const controlChars = '\u0001'.repeat(60_000); // 60 KB of text, 360 KB as JSON
    const fitted = fitMessage(
      logEvent({ payload: { request: controlChars, response: 'ok', truncated: false } }),
    );
    expect(bytes(JSON.stringify(fitted))).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(fitted.payload).toMatchObject({ response: 'ok', truncated: true });
    expect(fitted.payload!.request!.length).toBeGreaterThan(5_000);
  });
});

describe('chooseSink', () => {
  it('sends nothing when LOG_SINK is off, and to the queue by default', async () => {
    const off = logEvent();
    const on = logEvent();
    await chooseSink('off', env.LOG_QUEUE).send(off);
    await chooseSink(undefined, env.LOG_QUEUE, { waitMs: 20 }).send(on);
    await waitForLogs([on.requestId]);
    const { results } = await env.DB.prepare('SELECT id FROM request_logs WHERE id IN (?, ?)')
      .bind(off.requestId, on.requestId)
      .all();
    expect(results).toEqual([{ id: on.requestId }]);
  });

  it('holds a batch that does not fill for LOG_BATCH_WAIT_MS, then sends its events as one message', async () => {
    const sent: unknown[] = [];
    const queue = { send: async (body: unknown) => void sent.push(body) };
    const sink = chooseSink('queue', queue, { waitMs: 60 });
    const t0 = Date.now();
    const first = sink.send(logEvent());
    await sink.send(logEvent());
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toEqual([]);
    await first;
    const waited = Date.now() - t0;
    expect(waited).toBeGreaterThanOrEqual(55);
    expect(waited).toBeLessThan(900); // the setting, not the one-second default
    expect(sent).toHaveLength(1);
    expect((sent[0] as { events: unknown[] }).events).toHaveLength(2);
  });
});
