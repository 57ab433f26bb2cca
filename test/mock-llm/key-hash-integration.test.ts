import { describe, expect, it } from 'vitest';
import { postOpenAI } from './helpers';

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('x-mock-key-sha256', () => {
  const body = { model: 'echo', messages: [{ role: 'user', content: 'hi' }] };

  it('tells which key a chat answer was called with, as its hash only', async () => {
    for (const key of ['tenant-key-0001', 'deployment-key']) {
      const res = await postOpenAI('/v1/chat/completions', body, { authorization: `Bearer ${key}` });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-mock-key-sha256')).toBe(await sha256Hex(key));
      expect(await res.text()).not.toContain(key);
    }
  });

  it('is on streamed answers too', async () => {
    const res = await postOpenAI(
      '/v1/chat/completions',
      { ...body, stream: true },
      { authorization: 'Bearer k-1' },
    );
    expect(res.headers.get('x-mock-key-sha256')).toBe(await sha256Hex('k-1'));
    await res.text();
  });
});
