/** Providers as rows: EDGEWAY_PROVIDERS parsed into rows, and the registry built from the rows and the secrets. */
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../../src/env';
import { buildRegistry } from '../../../src/providers/registry';
import { customProviderRows } from '../../../src/providers/table';
import type { ProviderAdapter } from '../../../src/providers/types';

const rows = (value: unknown) =>
  customProviderRows({ EDGEWAY_PROVIDERS: typeof value === 'string' ? value : JSON.stringify(value) });
const ACME = { id: 'acme', base_url: 'https://api.acme.test/v1/', api_key_secret: 'PROVIDER_KEY_ACME' };

const call = (endpoint: 'chat' | 'embeddings' | 'messages') => ({
  endpoint,
  model: 'm',
  stream: false,
  passHeaders: [],
});

describe('customProviderRows', () => {
  it('has no rows when EDGEWAY_PROVIDERS is unset, empty or blank', () => {
    expect(customProviderRows({})).toEqual([]);
    expect(customProviderRows({ EDGEWAY_PROVIDERS: '' })).toEqual([]);
    expect(customProviderRows({ EDGEWAY_PROVIDERS: '  \n\t ' })).toEqual([]);
    expect(rows([])).toEqual([]);
  });

  it('reads an OpenAI-format row as serving chat and embeddings, with trailing slashes trimmed', () => {
    expect(rows([{ ...ACME, base_url: 'https://api.acme.test/v1///' }])).toMatchObject([
      {
        id: 'acme',
        baseUrl: 'https://api.acme.test/v1',
        keySecret: 'PROVIDER_KEY_ACME',
        serves: { chat: 'openai', embeddings: 'openai' },
      },
    ]);
  });

  it('reads an Anthropic-format row as serving messages', () => {
    expect(rows([{ ...ACME, format: 'anthropic' }])).toMatchObject([
      {
        id: 'acme',
        baseUrl: 'https://api.acme.test/v1',
        keySecret: 'PROVIDER_KEY_ACME',
        serves: { messages: 'anthropic' },
      },
    ]);
  });

  it('serves only the endpoints a row lists, in its format', () => {
    expect(rows([{ ...ACME, endpoints: ['chat'] }])[0]!.serves).toEqual({ chat: 'openai' });
  });

  it('reads several rows, and a row without api_key_secret has no key secret', () => {
    const parsed = customProviderRows({
      EDGEWAY_PROVIDERS: `  ${JSON.stringify([ACME, { id: 'local-llm-2', base_url: 'http://10.0.0.5:8080/v1' }])}  `,
    });
    expect(parsed.map((r) => [r.id, r.baseUrl, r.keySecret])).toEqual([
      ['acme', 'https://api.acme.test/v1', 'PROVIDER_KEY_ACME'],
      ['local-llm-2', 'http://10.0.0.5:8080/v1', ''],
    ]);
  });

  it('refuses a key secret that is not a PROVIDER_KEY_* secret, so a row cannot borrow a built-in provider key', () => {
    expect(() => rows([{ ...ACME, api_key_secret: 'OPENAI_API_KEY' }])).toThrow(
      'EDGEWAY_PROVIDERS is invalid: row 0 (api_key_secret): must name a PROVIDER_KEY_* secret',
    );
    expect(() => rows([{ ...ACME, api_key_secret: 'ADMIN_TOKEN' }])).toThrow(
      /must name a PROVIDER_KEY_\* secret/,
    );
  });

  it('refuses an id that is not lowercase letters, digits and dashes', () => {
    for (const id of ['Acme', 'acme_ai', '-acme', 'ac/me', '']) {
      expect(() => rows([{ ...ACME, id }])).toThrow(
        'EDGEWAY_PROVIDERS is invalid: row 0 (id): lowercase letters, digits and dashes',
      );
    }
    expect(() => rows([ACME, { ...ACME, id: 'Acme' }])).toThrow(
      /^EDGEWAY_PROVIDERS is invalid: row 1 \(id\): /,
    );
  });

  it('refuses a base URL that is not an http(s) URL', () => {
    expect(() => rows([{ ...ACME, base_url: 'ftp://files.acme.test/v1' }])).toThrow(
      /^EDGEWAY_PROVIDERS is invalid: .*http/,
    );
    expect(() => rows([{ ...ACME, base_url: 'api.acme.test/v1' }])).toThrow(
      /^EDGEWAY_PROVIDERS is invalid: /,
    );
  });

  it('refuses an unknown format, an unknown endpoint, a missing field and a value that is not an array', () => {
    expect(() => rows([{ ...ACME, format: 'gemini' }])).toThrow(/^EDGEWAY_PROVIDERS is invalid: /);
    expect(() => rows([{ ...ACME, endpoints: ['images'] }])).toThrow(/^EDGEWAY_PROVIDERS is invalid: /);
    expect(() => rows([{ id: 'acme' }])).toThrow(/^EDGEWAY_PROVIDERS is invalid: /);
    expect(() => rows(ACME)).toThrow(/^EDGEWAY_PROVIDERS is invalid: /);
  });

  it('refuses a value that is not JSON, saying it is EDGEWAY_PROVIDERS', () => {
    expect(() => customProviderRows({ EDGEWAY_PROVIDERS: '[{id: acme}]' })).toThrow(
      /^EDGEWAY_PROVIDERS is not valid JSON: /,
    );
    expect(() => customProviderRows({ EDGEWAY_PROVIDERS: '[' })).toThrow(
      /^EDGEWAY_PROVIDERS is not valid JSON: /,
    );
  });
});

describe('buildRegistry with a custom row', () => {
  const registry = (extra: Record<string, string> = {}) =>
    buildRegistry({
      MOCK_LLM_URL: 'http://mock.test/v1/',
      EDGEWAY_PROVIDERS: JSON.stringify([ACME, { ...ACME, id: 'acme-claude', format: 'anthropic' }]),
      ...extra,
    } as unknown as Bindings);
  const adapter = (got: ReturnType<ReturnType<typeof registry>['get']>): ProviderAdapter => {
    if (typeof got === 'string') throw new Error(`expected an adapter, got ${got}`);
    return got;
  };

  it('serves a row without api_key_secret with no key at all (vLLM, Ollama, TGI)', () => {
    const providers = buildRegistry({
      EDGEWAY_PROVIDERS: JSON.stringify([{ id: 'vllm', base_url: 'http://10.0.0.5:8000/v1' }]),
    } as unknown as Bindings);
    expect(providers.configured()).toContain('vllm');
    const chat = adapter(providers.get('vllm')).prepare(call('chat'))!;
    expect(chat.url).toBe('http://10.0.0.5:8000/v1/chat/completions');
    expect(chat.headers.has('authorization')).toBe(false);
  });

  it("refuses a row that takes another provider's id: the first keeps it, the clash is a config problem", () => {
    const problems: { variable: string; message: string }[] = [];
    const providers = buildRegistry(
      {
        GEMINI_API_KEY: 'g',
        EDGEWAY_PROVIDERS: JSON.stringify([{ id: 'gemini', base_url: 'http://evil.test/v1' }]),
      } as unknown as Bindings,
      problems,
    );
    expect(problems[0]?.message).toMatch(/'gemini' is already a provider/);
    const gemini = adapter(providers.get('gemini')).prepare(call('chat'))!;
    expect(gemini.format).toBe('gemini');
    expect(() =>
      buildRegistry({
        EDGEWAY_PROVIDERS: JSON.stringify([{ id: 'openai', base_url: 'http://x.test' }]),
      } as never),
    ).toThrow(/already a provider/);
  });

  it('refuses a row that lists an endpoint its format does not have', () => {
    expect(() => rows([{ ...ACME, format: 'anthropic', endpoints: ['chat'] }])).toThrow(/endpoints/);
  });

  it("knows a row whose secret is absent but reports it 'unconfigured'", () => {
    const providers = registry();
    expect(providers.get('acme')).toBe('unconfigured');
    expect(providers.configured()).not.toContain('acme');
  });

  it('builds an adapter for the row when its secret is set, calling its base URL with that key', () => {
    const providers = registry({ PROVIDER_KEY_ACME: 'sk-acme' });
    const acme = adapter(providers.get('acme'));
    expect(acme.id).toBe('acme');
    const chat = acme.prepare(call('chat'))!;
    expect(chat.url).toBe('https://api.acme.test/v1/chat/completions');
    expect(chat.format).toBe('openai');
    expect(chat.headers.get('authorization')).toBe('Bearer sk-acme');
    expect(acme.prepare(call('embeddings'))!.url).toBe('https://api.acme.test/v1/embeddings');
    // An OpenAI-format row answers /v1/messages through its chat endpoint, the codecs translating.
    const messages = acme.prepare(call('messages'))!;
    expect(messages.url).toBe('https://api.acme.test/v1/chat/completions');
    expect(messages.format).toBe('openai');
    expect(providers.configured()).toEqual(expect.arrayContaining(['acme', 'acme-claude', 'mock']));
  });

  it('presents the key the Anthropic way for an Anthropic-format row', () => {
    const messages = adapter(registry({ PROVIDER_KEY_ACME: 'sk-acme' }).get('acme-claude')).prepare(
      call('messages'),
    )!;
    expect(messages.url).toBe('https://api.acme.test/v1/messages');
    expect(messages.headers.get('x-api-key')).toBe('sk-acme');
    expect(messages.headers.get('anthropic-version')).toBeTruthy();
    expect(messages.headers.has('authorization')).toBe(false);
  });

  it("reports an id no row names as 'unknown', and a built-in provider without its key as 'unconfigured'", () => {
    const providers = registry({ PROVIDER_KEY_ACME: 'sk-acme' });
    expect(providers.get('nope')).toBe('unknown');
    expect(providers.get('acm')).toBe('unknown');
    expect(providers.get('openai')).toBe('unconfigured');
  });

  it('reaches the mock at MOCK_LLM_URL without its trailing slash, with no secret needed', () => {
    expect(adapter(registry().get('mock')).prepare(call('chat'))!.url).toBe(
      'http://mock.test/v1/chat/completions',
    );
  });
});
