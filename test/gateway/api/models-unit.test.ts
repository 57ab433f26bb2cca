/** GET /v1/models' list: configured providers, their own model lists, tenants' own keys, the key's allow-list. */
import { describe, expect, it } from 'vitest';
import { modelEntries, modelList } from '../../../src/api/models';
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

describe('modelEntries', () => {
  const routes = [
    { name: 'fast', createdAt: 1_750_000_000_500 },
    { name: 'smart', createdAt: 1_760_000_000_000 },
  ];

  it('lists named routes by the name a client sends, dated by their creation', () => {
    const listed = modelEntries(principal(), [], [], routes);
    expect(listed).toEqual([
      { id: 'fast', created: 1_750_000_000, ownedBy: 'edgeway' },
      { id: 'smart', created: 1_760_000_000, ownedBy: 'edgeway' },
    ]);
  });

  it("keeps routes to the key's allow-list, and never reads a route name as a provider", () => {
    const listed = modelEntries(principal({ models: ['fast', 'fas'] }), ['fas'], [], routes);
    expect(listed.map((m) => m.id)).toEqual(['fast']);
  });

  it('sorts everything by id, provider models and routes together', () => {
    const listed = modelEntries(principal(), ['custom'], [entry('custom', ['zeta', 'alpha'])], routes);
    expect(listed.map((m) => m.id)).toEqual(['custom/alpha', 'custom/zeta', 'fast', 'smart']);
  });
});

describe('a custom provider row', () => {
  const base = { DB: {}, KV_KEYS: {} } as unknown as Bindings;
  const rows = (models: unknown) =>
    JSON.stringify([{ id: 'vllm', base_url: 'http://10.0.0.5:8000/v1', models }]);

  it('lists the models its row names, as vllm/<model>', () => {
    const registry = buildRegistry({ ...base, EDGEWAY_PROVIDERS: rows(['llama-3.1-8b', 'qwen2.5-7b']) });
    const list = ids(modelList(principal(), registry.configured(), registry.entries()));
    expect(list).toContain('vllm/llama-3.1-8b');
    expect(list).toContain('vllm/qwen2.5-7b');
  });

  it('refuses a model id with spaces, naming the row and field', () => {
    expect(() => buildRegistry({ ...base, EDGEWAY_PROVIDERS: rows(['two words']) })).toThrow(
      /row 0 \(models\.0\)/,
    );
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
