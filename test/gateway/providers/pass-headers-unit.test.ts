/** Client headers a provider needs: on an allow-list, and only to a provider of their own format. */
import { describe, expect, it } from 'vitest';
import { tableAdapter } from '../../../src/providers/adapter';
import { passHeaders } from '../../../src/providers/pass-headers';
import type { ProviderRow } from '../../../src/providers/table';

const client = new Headers({
  authorization: 'Bearer ew_gateway_key',
  'anthropic-beta': 'prompt-caching-2024-07-31',
  'anthropic-version': '2023-06-01',
  'openai-organization': 'org-123',
  'openai-project': 'proj_456',
  'x-forwarded-for': '10.0.0.1',
  cookie: 'session=1',
});

const row = (format: 'openai' | 'anthropic'): ProviderRow => ({
  id: 'acme',
  baseUrl: 'https://acme.test/v1',
  keySecret: 'PROVIDER_KEY_ACME',
  serves: format === 'openai' ? { chat: 'openai' } : { messages: 'anthropic' },
  headers: { 'x-team': 'search' },
});

const target = (format: 'openai' | 'anthropic', endpoint: 'chat' | 'messages') =>
  tableAdapter(row(format), 'sk-acme', async () => new Response()).prepare({
    endpoint,
    model: 'm',
    stream: false,
    passHeaders: passHeaders(client),
  });

describe('passHeaders', () => {
  it('keeps only the allow-listed headers, never the gateway key, cookies or anything else', () => {
    expect(Object.fromEntries(passHeaders(client))).toEqual({
      'anthropic-beta': 'prompt-caching-2024-07-31',
      'anthropic-version': '2023-06-01',
      'openai-organization': 'org-123',
      'openai-project': 'proj_456',
    });
    expect(passHeaders(new Headers())).toEqual([]);
  });

  it('drops an oversized value', () => {
    expect(passHeaders(new Headers({ 'anthropic-beta': 'x'.repeat(513) }))).toEqual([]);
  });
});

describe('a table provider given the client headers', () => {
  it("sends Anthropic's headers to an Anthropic-format provider only, with its own key and fixed headers", () => {
    const t = target('anthropic', 'messages');
    expect(t?.headers.get('anthropic-beta')).toBe('prompt-caching-2024-07-31');
    expect(t?.headers.get('x-api-key')).toBe('sk-acme');
    expect(t?.headers.get('x-team')).toBe('search');
    expect(t?.headers.has('openai-organization')).toBe(false);
    expect(t?.headers.has('authorization')).toBe(false);
  });

  it("sends OpenAI's headers to an OpenAI-format provider only, even when the client spoke Anthropic's API", () => {
    const t = target('openai', 'messages');
    expect(t?.format).toBe('openai');
    expect(t?.headers.get('openai-project')).toBe('proj_456');
    expect(t?.headers.has('anthropic-beta')).toBe(false);
    expect(t?.headers.get('authorization')).toBe('Bearer sk-acme');
  });

  it('leaves the shared headers of the adapter untouched', () => {
    const adapter = tableAdapter(row('openai'), 'sk-acme', async () => new Response());
    adapter.prepare({ endpoint: 'chat', model: 'm', stream: false, passHeaders: [['openai-project', 'p1']] });
    const plain = adapter.prepare({ endpoint: 'chat', model: 'm', stream: false, passHeaders: [] });
    expect(plain?.headers.has('openai-project')).toBe(false);
  });

  it('sends no auth header for a keyless row', () => {
    const keyless = tableAdapter({ ...row('openai'), keyless: true }, null, async () => new Response());
    const t = keyless.prepare({ endpoint: 'chat', model: 'm', stream: false, passHeaders: [] });
    expect(t?.headers.has('authorization')).toBe(false);
    expect(t?.headers.get('x-team')).toBe('search');
  });
});
