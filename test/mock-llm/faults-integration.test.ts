import { describe, expect, it } from 'vitest';
import { chunksOf, parseSse, postAnthropic, postOpenAI, streamedText, tryJson, USER_HELLO } from './helpers';

const CHAT = '/v1/chat/completions';

function chatWith(mock: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Response> {
  return postOpenAI(CHAT, { model: 'mock-small', messages: USER_HELLO, ...extra, mock });
}

function streamWith(mock: Record<string, unknown>): Promise<Response> {
  return chatWith(mock, { stream: true });
}

/** Reads a body to the end, returning the text received and the error that ended it, if any. */
async function drain(res: Response): Promise<{ text: string; error: unknown }> {
  const reader = res.body!.getReader();
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

describe('mock.status', () => {
  it('returns 429 in the OpenAI envelope with retry-after: 1', async () => {
    const res = await chatWith({ status: 429 });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({
      error: { message: expect.any(String), type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
  });

  it('returns 5xx as server_error in the OpenAI envelope, also for stream requests', async () => {
    const res = await chatWith({ status: 503 }, { stream: true });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('retry-after')).toBeNull();
    expect(await res.json()).toMatchObject({ error: { type: 'server_error', param: null, code: null } });
  });

  it('fails embeddings requests too', async () => {
    const res = await postOpenAI('/v1/embeddings', {
      model: 'text-embedding-3-small',
      input: 'x',
      mock: { status: 500 },
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: { type: 'server_error' } });
  });

  it('returns Anthropic errors in Anthropic shape: 429 rate_limit_error, 529 overloaded_error, 500 api_error', async () => {
    const body = { model: 'claude-mock', max_tokens: 10, messages: USER_HELLO };
    const r429 = await postAnthropic('/v1/messages', { ...body, mock: { status: 429 } });
    expect(r429.status).toBe(429);
    expect(r429.headers.get('retry-after')).toBe('1');
    expect(r429.headers.get('request-id')).toMatch(/^req_/);
    const j429 = (await r429.json()) as { request_id: string };
    expect(j429).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.any(String) },
    });
    expect(j429.request_id).toBe(r429.headers.get('request-id'));
    const r529 = await postAnthropic('/v1/messages', { ...body, stream: true, mock: { status: 529 } });
    expect(r529.status).toBe(529);
    expect(await r529.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    const r500 = await postAnthropic('/v1/messages', { ...body, mock: { status: 500 } });
    expect(await r500.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  });
});

describe('mock.fail_first', () => {
  it('fails the first N requests carrying the key, then answers normally', async () => {
    const key = `retry-${crypto.randomUUID()}`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await chatWith({ fail_first: 2, key, status: 503 });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses).toEqual([503, 503, 200, 200]);
  });

  it('defaults to 500 and counts each key separately', async () => {
    const a = `a-${crypto.randomUUID()}`;
    const b = `b-${crypto.randomUUID()}`;
    expect((await chatWith({ fail_first: 1, key: a })).status).toBe(500);
    expect((await chatWith({ fail_first: 1, key: b })).status).toBe(500);
    expect((await chatWith({ fail_first: 1, key: a })).status).toBe(200);
  });

  it('works on the Anthropic route with Anthropic-shaped errors', async () => {
    const key = `anthropic-${crypto.randomUUID()}`;
    const body = {
      model: 'claude-mock',
      max_tokens: 10,
      messages: USER_HELLO,
      mock: { fail_first: 1, key, status: 529 },
    };
    const first = await postAnthropic('/v1/messages', body);
    expect(first.status).toBe(529);
    expect(await first.json()).toMatchObject({ error: { type: 'overloaded_error' } });
    expect((await postAnthropic('/v1/messages', body)).status).toBe(200);
  });
});

describe('mock.latency_ms', () => {
  it('delays the response headers', async () => {
    const started = Date.now();
    const res = await chatWith({ latency_ms: 150 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(res.status).toBe(200);
  });
});

describe('stream faults', () => {
  it('cut_after closes the stream cleanly after N token chunks, with no finish chunk and no [DONE]', async () => {
    const res = await streamWith({ cut_after: 3 });
    const { text, error } = await drain(res);
    expect(error).toBeUndefined();
    expect(text).not.toContain('[DONE]');
    const chunks = chunksOf(parseSse(text));
    expect(chunks).toHaveLength(1 + 3);
    expect(chunks.every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
  });

  it('reset_after on the Anthropic stream errors the read before message_stop', async () => {
    const res = await postAnthropic('/v1/messages', {
      model: 'claude-mock',
      max_tokens: 100,
      messages: USER_HELLO,
      stream: true,
      mock: { reset_after: 1 },
    });
    const { text, error } = await drain(res);
    expect(error).toBeInstanceOf(Error);
    expect(parseSse(text).map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
    ]);
  });

  it('cut_after beyond the token count still drops the finish chunk and terminator', async () => {
    const { text } = await drain(await streamWith({ tokens: 2, cut_after: 50 }));
    expect(chunksOf(parseSse(text))).toHaveLength(1 + 2);
    expect(text).not.toContain('[DONE]');
  });

  it('cut_after on the Anthropic stream ends without message_stop', async () => {
    const res = await postAnthropic('/v1/messages', {
      model: 'claude-mock',
      max_tokens: 100,
      messages: USER_HELLO,
      stream: true,
      mock: { cut_after: 2 },
    });
    const { text, error } = await drain(res);
    expect(error).toBeUndefined();
    const names = parseSse(text).map((e) => e.event);
    expect(names).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
    ]);
  });

  it('reset_after errors the read after N token chunks', async () => {
    const res = await streamWith({ reset_after: 2 });
    expect(res.status).toBe(200);
    const { text, error } = await drain(res);
    expect(error).toBeInstanceOf(Error);
    expect(chunksOf(parseSse(text))).toHaveLength(1 + 2);
    expect(text).not.toContain('[DONE]');
  });

  it('stall_after pauses for stall_ms after N token chunks, then finishes normally', async () => {
    const started = Date.now();
    const res = await streamWith({ tokens: 4, stall_after: 2, stall_ms: 300 });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let stalledAt = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (stalledAt === 0 && chunksOf(parseSse(text)).length === 3) stalledAt = Date.now();
    }
    const total = Date.now() - started;
    expect(total).toBeGreaterThanOrEqual(280);
    expect(total).toBeLessThan(3000);
    expect(Date.now() - stalledAt).toBeGreaterThanOrEqual(250);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(chunksOf(parseSse(text))).toHaveLength(1 + 4 + 1);
  });

  it('malformed_after sends exactly one unparsable event and then continues normally', async () => {
    const normal = await (await chatWith({})).json();
    const res = await streamWith({ malformed_after: 1 });
    const events = parseSse(await res.text());
    const bad = events.filter((e) => e.data !== '[DONE]' && tryJson(e.data) === undefined);
    expect(bad).toHaveLength(1);
    expect(bad[0]!.data).toMatch(/^\{"id":"chatcmpl-[A-Za-z0-9]+",$/);
    expect(events.indexOf(bad[0]!)).toBe(2); // role chunk, one token, then the bad event
    const good = events.filter((e) => !bad.includes(e));
    expect(good.at(-1)!.data).toBe('[DONE]');
    expect(streamedText(chunksOf(good))).toBe(
      (normal as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
    );
  });

  it('pace_ms spaces the token events; the tail goes out as one burst, as real providers write it', async () => {
    const started = Date.now();
    const res = await streamWith({ tokens: 3, pace_ms: 40 });
    const reader = res.body!.getReader();
    const writes: string[] = [];
    const decoder = new TextDecoder();
    for (let r = await reader.read(); !r.done; r = await reader.read()) writes.push(decoder.decode(r.value));
    // role, 3 tokens, then finish + [DONE] together: 4 gaps.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 40 - 10);
    expect(writes.length).toBe(5);
    expect(writes.at(-1)).toMatch(/"finish_reason":"stop"[\s\S]*data: \[DONE\]/);
  });

  it('stops streaming when the client cancels mid-stall', async () => {
    const res = await streamWith({ tokens: 4, stall_after: 1, stall_ms: 120_000 });
    const reader = res.body!.getReader();
    await reader.read();
    const started = Date.now();
    await reader.cancel();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('misbehaving upstream faults', () => {
  it('huge_event_bytes: one valid content event of about that size, in many writes', async () => {
    const res = await streamWith({ huge_event_bytes: 300_000 });
    const reader = res.body!.getReader();
    let text = '';
    let writes = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      writes++;
      text += new TextDecoder().decode(r.value);
    }
    expect(writes).toBeGreaterThan(3);
    const events = text.split('\n\n').filter(Boolean);
    const huge = events.find((e) => e.length > 1000)!;
    expect(huge.length + 2).toBe(300_000);
    expect(JSON.parse(huge.slice('data: '.length)).choices[0].delta.content).toMatch(/^x+$/);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('unterminated_bytes: an event that never gets its blank line, then the body ends', async () => {
    const res = await streamWith({ unterminated_bytes: 100_000 });
    const { text, error } = await drain(res);
    expect(error).toBeUndefined();
    expect(text.length).toBeGreaterThanOrEqual(100_000);
    expect(text.endsWith('x')).toBe(true);
    expect(text).not.toContain('[DONE]');
  });

  it('error_message: the message, with {key} replaced by the credential presented', async () => {
    const res = await chatWith({ status: 400, error_message: 'Bad key {key}.' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: 'Bad key test-key.' } });
    const anthropic = await postAnthropic('/v1/messages', {
      model: 'claude-mock',
      max_tokens: 5,
      messages: USER_HELLO,
      mock: { status: 429, error_message: 'limited for {key}' },
    });
    expect(anthropic.status).toBe(429);
    expect(await anthropic.json()).toMatchObject({
      error: { type: 'rate_limit_error', message: 'limited for test-key' },
    });
  });

  it('error_body_bytes: a valid error body of about that size', async () => {
    const res = await chatWith({ status: 500, error_body_bytes: 200_000 });
    const text = await res.text();
    expect(text.length).toBe(200_000);
    expect(JSON.parse(text).error.type).toBe('server_error');
  });

  it('body_cut_bytes: a JSON answer that ends cleanly after N bytes', async () => {
    const res = await chatWith({ body_cut_bytes: 40 });
    expect(res.status).toBe(200);
    const { text, error } = await drain(res);
    expect(error).toBeUndefined();
    expect(text.length).toBe(40);
  });

  it('body_reset_bytes: a JSON answer whose transfer fails after N bytes', async () => {
    const res = await chatWith({ body_reset_bytes: 40 });
    expect(res.status).toBe(200);
    const { text, error } = await drain(res);
    expect(error).toBeDefined();
    expect(text.length).toBeLessThanOrEqual(40);
  });

  it('body_stall_after: a JSON answer that pauses stall_ms after N bytes, then completes', async () => {
    const started = Date.now();
    const res = await chatWith({ body_stall_after: 10, stall_ms: 200 });
    const body = await res.json();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(body).toMatchObject({ object: 'chat.completion' });
    expect(res.headers.get('content-length')).toBeNull();
  });

  it('body_declared: the stalled answer declares its length, and still completes after the pause', async () => {
    const started = Date.now();
    const res = await chatWith({ body_stall_after: 10, stall_ms: 200, body_declared: true });
    const declared = Number(res.headers.get('content-length'));
    const text = await res.text();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(declared).toBe(new TextEncoder().encode(text).byteLength);
    expect(JSON.parse(text)).toMatchObject({ object: 'chat.completion' });
  });
});
