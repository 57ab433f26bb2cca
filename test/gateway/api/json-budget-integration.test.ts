import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../src/api/json-budget';
import { ADMIN_TOKEN } from '../admin-helpers';
import { seedKey } from '../helpers';

let key: string;
beforeAll(async () => {
  key = (await seedKey({ cache: { exact: true } })).secret;
});

/** A chat body whose extra field nests `depth` arrays (the whole body is one level deeper). */
const nested = (depth: number, model = 'mock/echo') =>
  `{"model":"${model}","messages":[{"role":"user","content":"deep ${crypto.randomUUID()}"}],"max_tokens":5,"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;

function send(path: string, body: string | ReadableStream, headers: Record<string, string> = {}) {
  return SELF.fetch(`http://gw.test${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
    body,
  });
}

/** The same bytes as a chunked body: no content-length, split in small pieces. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 1000));
      offset += 1000;
    },
  });
}

async function expectOpenAiTooDeep(res: Response) {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { error: { code: string; type: string; message: string } };
  expect(body.error).toMatchObject({ code: 'json_too_deep', type: 'invalid_request_error' });
  expect(body.error.message).toContain(String(MAX_JSON_DEPTH));
}

describe('the JSON depth budget', () => {
  it('answers 10,000 levels of nesting with a 400 on a key with exact caching, not a 500', async () => {
    await expectOpenAiTooDeep(await send('/v1/chat/completions', nested(10_000)));
  });

  it('answers the same for a chunked body with no content-length', async () => {
    await expectOpenAiTooDeep(await send('/v1/chat/completions', chunked(nested(10_000))));
    await expectOpenAiTooDeep(
      await send('/v1/embeddings', chunked(`{"model":"m","input":${'['.repeat(5000)}`)),
    );
  });

  it('answers in the Anthropic shape on /v1/messages', async () => {
    const res = await send('/v1/messages', nested(10_000), { 'anthropic-version': '2023-06-01' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(body.error.message).toContain('nest');
  });

  it('answers in the admin envelope on /admin', async () => {
    const res = await SELF.fetch('http://gw.test/admin/tenants', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: chunked(`{"name":"deep","x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`),
    });
    await expectOpenAiTooDeep(res);
  });

  it(`accepts nesting up to ${MAX_JSON_DEPTH} levels, and brackets inside strings do not count`, async () => {
    const atLimit = await send('/v1/chat/completions', nested(MAX_JSON_DEPTH - 1));
    expect(atLimit.status).toBe(200);
    await atLimit.arrayBuffer();
    await expectOpenAiTooDeep(await send('/v1/chat/completions', nested(MAX_JSON_DEPTH)));
    const text = `[{"\\"[${'['.repeat(5000)}`;
    const inString = await send(
      '/v1/chat/completions',
      JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: text }], max_tokens: 5 }),
    );
    expect(inString.status).toBe(200);
    await inString.arrayBuffer();
  });
});
