import { describe, expect, it } from 'vitest';
import { parseSse, postOpenAI, tryJson } from './helpers';
import { get, type Json } from './responses-helpers';

const BODY = { model: 'mock-small', input: 'Fault me.', mock: { tokens: 6 } };

function respond(extra: Json, key = 'test-key'): Promise<Response> {
  const mock = { ...BODY.mock, ...((extra.mock as Json | undefined) ?? {}) };
  return postOpenAI('/v1/responses', { ...BODY, ...extra, mock }, { authorization: `Bearer ${key}` });
}

/** Reads a body to the end: the text received and the error that ended it, if any. */
async function drain(res: Response): Promise<{ text: string; error: unknown }> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, error: undefined };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

const typesOf = (text: string): (string | undefined)[] => parseSse(text).map((e) => e.event);

describe('faults on /v1/responses', () => {
  it('injects mock.status errors in the OpenAI envelope, streamed or not, storing nothing', async () => {
    const limited = await respond({ mock: { status: 429 } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toMatchObject({ error: { type: 'requests', code: 'rate_limit_exceeded' } });
    const failed = await respond({ stream: true, mock: { status: 500 } });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ error: { type: 'server_error' } });
  });

  it('fails only the first N requests of a key with fail_first', async () => {
    const key = `resp-fail-${crypto.randomUUID()}`;
    const mock = { status: 503, fail_first: 1, key };
    expect((await respond({ mock })).status).toBe(503);
    expect((await respond({ mock })).status).toBe(200);
  });

  it('cut_after ends the stream cleanly after N deltas, before any terminal event, and keeps nothing', async () => {
    const key = `resp-cut-${crypto.randomUUID()}`;
    const res = await respond({ stream: true, mock: { cut_after: 2 } }, key);
    const { text, error } = await drain(res);
    expect(error).toBeUndefined();
    const types = typesOf(text);
    expect(types.filter((t) => t === 'response.output_text.delta')).toHaveLength(2);
    expect(types).not.toContain('response.completed');
    expect(types.at(-1)).toBe('response.output_text.delta');
    const created = tryJson(parseSse(text)[0]?.data ?? '') as { response: { id: string } };
    expect((await get(`/v1/responses/${created.response.id}`, key)).status).toBe(404);
  });

  it('reset_after fails the body after N deltas', async () => {
    const res = await respond({ stream: true, mock: { reset_after: 3 } });
    const { text, error } = await drain(res);
    expect(error).toBeDefined();
    expect(typesOf(text).filter((t) => t === 'response.output_text.delta')).toHaveLength(3);
  });

  it('malformed_after sends one truncated event, then the stream goes on to response.completed', async () => {
    const res = await respond({ stream: true, mock: { malformed_after: 1 } });
    const events = parseSse(await res.text());
    const bad = events.filter((e) => tryJson(e.data) === undefined);
    expect(bad).toHaveLength(1);
    expect(bad[0]?.event).toBe('response.output_text.delta');
    expect(events.at(-1)?.event).toBe('response.completed');
    expect(events.indexOf(bad[0] as (typeof events)[number])).toBe(5);
  });

  it('stall_after pauses the stream between deltas', async () => {
    const started = Date.now();
    const res = await respond({ stream: true, mock: { stall_after: 1, stall_ms: 300 } });
    const events = parseSse(await res.text());
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(events.at(-1)?.event).toBe('response.completed');
  });

  it('body_cut_bytes cuts the JSON answer', async () => {
    const res = await respond({ mock: { body_cut_bytes: 20 } });
    expect(res.status).toBe(200);
    expect(await res.text()).toHaveLength(20);
  });
});
