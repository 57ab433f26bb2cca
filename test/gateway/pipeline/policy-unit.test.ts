/** Stage 2, policy: the pure allow/refuse decision and the GatewayError the pipeline throws for a refusal. */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors';
import { KeyRecord } from '../../../src/core/key-record';
import { parseProxyRequest } from '../../../src/core/request';
import { checkPolicy, enforcePolicy } from '../../../src/pipeline/policy';

const NOW = 1_800_000_000_000;
const principal = (models: string[] | null) =>
  KeyRecord.parse({ id: 'key_1', tenantId: 'ten_1', status: 'active', models, expiresAt: null });
const chat = (model: string) =>
  parseProxyRequest('chat', { model, messages: [{ role: 'user', content: 'hi' }] });

describe('checkPolicy', () => {
  it('allows a model the key may use', () => {
    expect(checkPolicy(principal(null), chat('openai/gpt-4o'), NOW)).toEqual({ allow: true });
    expect(checkPolicy(principal(['openai/*']), chat('openai/gpt-4o'), NOW)).toEqual({ allow: true });
  });

  it('refuses a model outside the allow-list with 403 model_not_allowed on the model parameter, naming the model', () => {
    expect(checkPolicy(principal(['openai/gpt-4o-mini']), chat('openai/gpt-4o'), NOW)).toEqual({
      allow: false,
      status: 403,
      code: 'model_not_allowed',
      param: 'model',
      message: "This key may not use the model 'openai/gpt-4o'.",
    });
  });

  it('judges the model as the client wrote it, so a prefix-sharing provider is refused', () => {
    expect(checkPolicy(principal(['open/*']), chat('openai/gpt-4o'), NOW)).toMatchObject({
      allow: false,
      code: 'model_not_allowed',
    });
  });
});

describe('enforcePolicy', () => {
  it('returns nothing when the request is allowed', () => {
    expect(enforcePolicy(principal(['mock/*']), chat('mock/echo'), NOW)).toBeUndefined();
  });

  it('throws a gateway-sourced 403 permission_error carrying the refusal', () => {
    let thrown: unknown;
    try {
      enforcePolicy(principal(['mock/echo']), chat('mock/mock-large'), NOW);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({
      status: 403,
      type: 'permission_error',
      code: 'model_not_allowed',
      param: 'model',
      source: 'gateway',
      message: "This key may not use the model 'mock/mock-large'.",
      headers: {},
    });
  });
});
