/** GET /v1/models' list: configured providers, their own model lists, tenants' own keys, the key's allow-list. */
import { describe, expect, it } from 'vitest';
import { modelList } from '../../../src/api/models';
import { KeyRecord } from '../../../src/core/key-record';
import type { Bindings } from '../../../src/env';
import { buildRegistry } from '../../../src/providers/registry';
import type { ProviderEntry } from '../../../src/providers/types';

const principal = (extra: Record<string, unknown> = {}) =>
  KeyRecord.parse({ id: 'k', tenantId: 't', status: 'active', models: null, expiresAt: null, ...extra });

const entry = (id: string, models: string[], extra: Partial<ProviderEntry> = {}): ProviderEntry => ({
  id,
  deploymentKey: null,
  keyless: false,
  acceptsTenantKeys: true,
  models,
  build: () => {
    throw new Error('not built in this test');
  },
  ...extra,
});

const ids = (list: ReturnType<typeof modelList>) => list.data.map((m) => m.id);

describe('modelList', () => {
  it("lists a configured provider's own models next to the priced catalogue", () => {
    const list = ids(
      modelList(principal(), ['workers-ai'], [entry('workers-ai', ['@cf/meta/llama-3.1-8b-instruct'])]),
    );
    expect(list).toContain('workers-ai/@cf/meta/llama-3.1-8b-instruct');
  });

  it('lists nothing of a provider that is neither configured nor keyed by the tenant', () => {
    const list = ids(modelList(principal(), [], [entry('openai', [])]));
    expect(list.some((id) => id.startsWith('openai/'))).toBe(false);
  });

  it('lists a provider the tenant brought its own key for, even when the deployment has none', () => {
    const sealed = { openai: { ciphertext: 'x', iv: 'y' } };
    const list = ids(modelList(principal({ providerKeys: sealed }), [], [entry('openai', [])]));
    expect(list).toContain('openai/gpt-4o-mini');
  });

  it("keeps to the key's allow-list", () => {
    const list = ids(
      modelList(
        principal({ models: ['workers-ai/*'] }),
        ['openai', 'workers-ai'],
        [entry('workers-ai', ['@cf/a'])],
      ),
    );
    expect(list).toContain('workers-ai/@cf/a');
    expect(list.every((id) => id.startsWith('workers-ai/'))).toBe(true);
  });
});

describe('the mock provider', () => {
  const base = { DB: {}, KV_KEYS: {} } as unknown as Bindings;

  it('exists only where MOCK_LLM_URL is set', () => {
    expect(buildRegistry(base).get('mock')).toBe('unknown');
    expect(buildRegistry(base).configured()).not.toContain('mock');
    const withMock = buildRegistry({ ...base, MOCK_LLM_URL: 'http://127.0.0.1:8788/v1' });
    expect(withMock.configured()).toContain('mock');
  });
});
