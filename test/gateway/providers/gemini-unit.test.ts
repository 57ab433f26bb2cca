import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../../src/env';
import { GEMINI_BASE_URL, geminiAdapter, geminiEntry } from '../../../src/providers/gemini';
import { buildRegistry } from '../../../src/providers/registry';

const KEY = 'AIzaSyD-test-gemini-key-0123456789abcdef';
const noFetch = () => Promise.reject(new Error('no network in unit tests'));
const input = (endpoint: 'chat' | 'messages' | 'embeddings', stream = false) => ({
  endpoint,
  model: 'gemini-2.0-flash',
  stream,
  passHeaders: [['anthropic-beta', 'x'] as const],
});

describe('Gemini provider', () => {
  const adapter = geminiAdapter('https://g.test', KEY, noFetch);

  it('calls generateContent, streamGenerateContent with alt=sse, and batchEmbedContents on the model path', () => {
    expect(adapter.prepare(input('chat'))?.url).toBe(
      'https://g.test/v1beta/models/gemini-2.0-flash:generateContent',
    );
    expect(adapter.prepare(input('messages', true))?.url).toBe(
      'https://g.test/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
    );
    expect(adapter.prepare(input('embeddings'))?.url).toBe(
      'https://g.test/v1beta/models/gemini-2.0-flash:batchEmbedContents',
    );
    expect(adapter.prepare(input('chat'))?.format).toBe('gemini');
  });

  it('sends the key in x-goog-api-key, never in the URL, and passes no client headers', () => {
    const target = adapter.prepare(input('chat', true));
    expect(target?.headers.get('x-goog-api-key')).toBe(KEY);
    expect(target?.url).not.toContain(KEY);
    expect(target?.url).not.toContain('key=');
    expect(target?.headers.get('anthropic-beta')).toBeNull();
    expect(target?.headers.get('authorization')).toBeNull();
  });

  it('escapes the model id in the path', () => {
    expect(adapter.prepare({ ...input('chat'), model: 'a/b?c' })?.url).toBe(
      'https://g.test/v1beta/models/a%2Fb%3Fc:generateContent',
    );
  });

  it('scrubs its key from provider messages', () => {
    expect(adapter.scrub(`API key not valid: ${KEY}`)).not.toContain(KEY);
    expect(adapter.requestIdHeader).toBeNull();
  });

  it('is unconfigured without GEMINI_API_KEY, takes tenant keys, and defaults to Google’s API', async () => {
    const entry = geminiEntry({} as Bindings);
    expect(entry).toMatchObject({
      id: 'gemini',
      deploymentKey: null,
      keyless: false,
      acceptsTenantKeys: true,
    });
    expect(
      entry.build('tenant-key').prepare(input('chat'))?.url.startsWith(`${GEMINI_BASE_URL}/v1beta/`),
    ).toBe(true);
    expect(buildRegistry({} as Bindings).get('gemini')).toBe('unconfigured');
    const byok = buildRegistry({} as Bindings).get('gemini', 'tenant-key');
    expect(typeof byok === 'object' && byok.prepare(input('chat'))?.headers.get('x-goog-api-key')).toBe(
      'tenant-key',
    );
  });

  it('is configured by GEMINI_API_KEY and GEMINI_BASE_URL', () => {
    const registry = buildRegistry({
      GEMINI_API_KEY: KEY,
      GEMINI_BASE_URL: 'http://proxy.test/',
    } as Bindings);
    expect(registry.configured()).toContain('gemini');
    const adapter = registry.get('gemini');
    expect(typeof adapter === 'object' && adapter.prepare(input('chat'))?.url).toBe(
      'http://proxy.test/v1beta/models/gemini-2.0-flash:generateContent',
    );
  });
});
