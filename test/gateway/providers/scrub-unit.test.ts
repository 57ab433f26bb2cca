import { describe, expect, it } from 'vitest';
import { MAX_PROVIDER_MESSAGE_CHARS, scrubSecrets } from '../../../src/providers/scrub';

describe('scrubSecrets', () => {
  it.each([
    ['Incorrect API key provided: sk-proj-abcDEF1234567890xyz. Find your key at …', 'sk-proj-abc'],
    ['Incorrect API key provided: sk-proj-****************************wxyz.', 'wxyz'],
    ['invalid x-api-key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'sk-ant'],
    ['upstream said: Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', 'eyJ'],
    ['Bearer abc.def-ghi_jkl rejected', 'abc.def'],
    ['API key not valid: AIzaSyA1234567890abcdefghijklmnopqrstu', 'AIzaSy'],
    ['The AWS access key id AKIAIOSFODNN7EXAMPLE does not exist', 'AKIAIOSFODNN7EXAMPLE'],
    ['GET https://proxy.example/v1/chat?key=s3cr3t-value&alt=json failed', 's3cr3t-value'],
    ['{"api_key": "plain-secret-1"} is wrong', 'plain-secret-1'],
    ['token 0123456789abcdef0123456789abcdef0123 is expired', '0123456789abcdef0123456789abcdef'],
    ['secret dGhpcyBpcyBhIGxvbmcgc2VjcmV0IHZhbHVlIDEyMw== leaked', 'dGhpcyBpcyBh'],
    ['gsk_abcdefghijklmnop1234 and ghp_ABCDEFGHIJKLMNOPQRST1234', 'gsk_abc'],
  ])('removes the credential from %j', (message, secret) => {
    const out = scrubSecrets(message);
    expect(out).not.toContain(secret);
    expect(out).toContain('[redacted]');
  });

  it('removes the configured provider key wherever it appears, whatever its shape', () => {
    const key = 'mock-key';
    const out = scrubSecrets(`Rate limited for key mock-key (mock-key)`, [key]);
    expect(out).toBe('Rate limited for key [redacted] ([redacted])');
  });

  it('keeps ordinary messages as they are', () => {
    const message =
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. " +
      'Please reduce the length of the messages. (model: gpt-4o-mini-2024-07-18)';
    expect(scrubSecrets(message)).toBe(message);
    expect(scrubSecrets('x'.repeat(100))).toBe('x'.repeat(100));
  });

  it('caps the length with a marker, after scrubbing', () => {
    const out = scrubSecrets(`${'a '.repeat(2000)}sk-abcdefghijklmnop`);
    expect(out.length).toBeLessThanOrEqual(MAX_PROVIDER_MESSAGE_CHARS + 20);
    expect(out.endsWith('… [truncated]')).toBe(true);
  });

  it('scrubs a hostile 16 KiB message quickly (every pattern is linear)', () => {
    const hostile = `${'eyJ'.repeat(2000)}${'a1'.repeat(3000)}${'sk-'.repeat(1000)}`;
    const started = performance.now();
    scrubSecrets(hostile);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
