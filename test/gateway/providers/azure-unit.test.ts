import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../../src/env';
import {
  AZURE_DEFAULT_API_VERSION,
  azureAdapter,
  azureBaseUrl,
  azureEntry,
} from '../../../src/providers/azure';
import { buildRegistry } from '../../../src/providers/registry';

const noFetch = () => Promise.reject(new Error('no network in this test'));

describe('the Azure OpenAI adapter', () => {
  const adapter = azureAdapter('https://res.openai.azure.com', '2024-10-21', 'azure-secret', noFetch);

  it('calls the deployment’s chat completions with the api-version, the key in api-key, in OpenAI format', () => {
    const t = adapter.prepare({ endpoint: 'chat', model: 'my-gpt4o', stream: true, passHeaders: [] });
    expect(t).toMatchObject({
      url: 'https://res.openai.azure.com/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21',
      format: 'openai',
      stream: true,
    });
    expect(t?.headers.get('api-key')).toBe('azure-secret');
    expect(t?.headers.get('authorization')).toBeNull();
  });

  it('serves /v1/messages at chat completions (translated) and embeddings at the deployment’s embeddings', () => {
    const messages = adapter.prepare({ endpoint: 'messages', model: 'd', stream: false, passHeaders: [] });
    expect(messages?.url).toContain('/openai/deployments/d/chat/completions?');
    expect(messages?.endpoint).toBe('messages');
    const embeddings = adapter.prepare({
      endpoint: 'embeddings',
      model: 'emb 1',
      stream: false,
      passHeaders: [],
    });
    expect(embeddings?.url).toBe(
      'https://res.openai.azure.com/openai/deployments/emb%201/embeddings?api-version=2024-10-21',
    );
  });

  it('does not pass OpenAI’s account headers on, and relays apim-request-id', () => {
    const t = adapter.prepare({
      endpoint: 'chat',
      model: 'd',
      stream: false,
      passHeaders: [['openai-organization', 'org-1']],
    });
    expect(t?.headers.get('openai-organization')).toBeNull();
    expect(adapter.requestIdHeader).toBe('apim-request-id');
  });

  it('scrubs its key from provider messages', () => {
    expect(adapter.scrub('bad key azure-secret given')).not.toContain('azure-secret');
  });
});

describe('the Azure OpenAI provider entry', () => {
  it('normalises the base URL the portal shows', () => {
    expect(azureBaseUrl('https://res.openai.azure.com/')).toBe('https://res.openai.azure.com');
    expect(azureBaseUrl('https://res.openai.azure.com/openai/')).toBe('https://res.openai.azure.com');
    expect(azureBaseUrl(' ')).toBeNull();
  });

  it('defaults the api-version to the latest GA one and takes AZURE_OPENAI_API_VERSION over it', () => {
    const base = {
      ...env,
      AZURE_OPENAI_BASE_URL: 'https://r.openai.azure.com',
      AZURE_OPENAI_API_KEY: 'k',
    } as Bindings;
    const url = (b: Bindings) =>
      azureEntry(b).build('k').prepare({ endpoint: 'chat', model: 'd', stream: false, passHeaders: [] })?.url;
    expect(url(base)).toContain(`api-version=${AZURE_DEFAULT_API_VERSION}`);
    expect(url({ ...base, AZURE_OPENAI_API_VERSION: '2025-01-01-preview' })).toContain(
      'api-version=2025-01-01-preview',
    );
  });

  it('is configured by base URL and key, takes tenant keys, and is unconfigured without a base URL', () => {
    const configured = buildRegistry(env as unknown as Bindings);
    expect(configured.configured()).toContain('azure');
    const entry = configured.entries().find((e) => e.id === 'azure');
    expect(entry?.acceptsTenantKeys).toBe(true);

    const noBase = buildRegistry({ ...env, AZURE_OPENAI_BASE_URL: undefined } as unknown as Bindings);
    expect(noBase.get('azure')).toBe('unconfigured');
    expect(noBase.get('azure', 'tenant-key')).toBe('unconfigured');
  });
});
