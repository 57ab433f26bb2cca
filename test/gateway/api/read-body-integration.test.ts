import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedKey } from '../helpers';

let key: string;
beforeAll(async () => {
  key = (await seedKey()).secret;
});

const LIMIT = 1_048_576;

function streamOf(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

const chat = (content: string) =>
  JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content }], max_tokens: 5 });

describe('reading a request body', () => {
  it('answers a body whose declared length is right', async () => {
    const body = chat('hello');
    const res = await SELF.fetch('http://gw.test/v1/chat/completions', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(new TextEncoder().encode(body).byteLength),
        authorization: `Bearer ${key}`,
      },
      body: streamOf(body),
    });
    expect(res.status).toBe(200);
  });

  it('refuses with 413 a body larger than the limit that declares a small length', async () => {
    const res = await SELF.fetch('http://gw.test/v1/chat/completions', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': '100',
        authorization: `Bearer ${key}`,
      },
      body: streamOf(chat('x'.repeat(LIMIT + 10))),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('request_too_large');
  });
});
