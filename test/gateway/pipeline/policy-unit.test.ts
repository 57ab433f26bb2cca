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

describe('checkPolicy: stream support and the max_tokens cap', () => {
  const limited = (keyMax: number | undefined, tenantMax: number | undefined) => ({
    ...principal(null),
    limits: keyMax === undefined ? {} : { max_tokens: keyMax },
    tenantLimits: tenantMax === undefined ? {} : { max_tokens: tenantMax },
  });
  const withCap = (extra: Record<string, unknown>) =>
    parseProxyRequest('chat', { model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }], ...extra });

  it('refuses stream on an endpoint that cannot stream with 400 invalid_value on the stream parameter', () => {
    const request = parseProxyRequest('embeddings', { model: 'mock/echo', input: 'hi' });
    expect(checkPolicy(principal(null), { ...request, stream: true }, NOW)).toEqual({
      allow: false,
      status: 400,
      code: 'invalid_value',
      param: 'stream',
      message: "'stream' is not supported on this endpoint.",
    });
  });

  it('refuses a stream before judging the model', () => {
    const request = parseProxyRequest('embeddings', { model: 'openai/x', input: 'hi' });
    expect(checkPolicy(principal(['mock/*']), { ...request, stream: true }, NOW)).toMatchObject({
      code: 'invalid_value',
    });
  });

  it("allows max_tokens at the key's cap and refuses one above it, naming the parameter the client used", () => {
    expect(checkPolicy(limited(50, undefined), withCap({ max_tokens: 50 }), NOW)).toEqual({ allow: true });
    expect(checkPolicy(limited(50, undefined), withCap({ max_completion_tokens: 51 }), NOW)).toEqual({
      allow: false,
      status: 400,
      code: 'max_tokens_exceeded',
      param: 'max_completion_tokens',
      message: "'max_completion_tokens' is 51, above the 50 allowed for this key.",
    });
  });

  it("names the tenant when the tenant's cap is the smaller one", () => {
    expect(checkPolicy(limited(100, 40), withCap({ max_tokens: 41 }), NOW)).toMatchObject({
      allow: false,
      message: "'max_tokens' is 41, above the 40 allowed for this key's tenant.",
    });
  });

  it('leaves a request without max_tokens to the reservation, whatever the cap', () => {
    expect(checkPolicy(limited(1, 1), withCap({}), NOW)).toEqual({ allow: true });
  });

  it('refuses a model outside the allow-list before judging max_tokens', () => {
    const p = { ...limited(1, undefined), models: ['openai/*'] };
    expect(checkPolicy(p, withCap({ max_tokens: 5 }), NOW)).toMatchObject({ code: 'model_not_allowed' });
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
