import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { parseProxyRequest } from '../../../src/core/request';
import { createApp } from '../../../src/app';
import type { Limiter as LimiterObject } from '../../../src/durable/limiter';
import type { Bindings } from '../../../src/env';
import { GatewayError } from '../../../src/core/errors';
import { readLimitsConfig } from '../../../src/limits/config';
import { durableLimiter } from '../../../src/limits/durable-limiter';
import type { LimiterRpc } from '../../../src/limits/protocol';
import { KeyRecord } from '../../../src/core/key-record';
import { chatBody } from '../helpers';
import { limitedKey } from '../limits-helpers';

/** A Limiter binding whose objects always fail, as an unreachable or broken Durable Object would. */
function brokenNamespace(): DurableObjectNamespace<LimiterObject> {
  const broken: LimiterRpc = {
    reserve: () => Promise.reject(new Error('Durable Object reset because its code was updated.')),
    settle: () => Promise.reject(new Error('unreachable')),
  };
  const ns = { idFromName: (name: string) => ({ name }), get: () => broken };
  return ns as unknown as DurableObjectNamespace<LimiterObject>;
}

async function callWith(
  overrides: Partial<Bindings>,
  secret: string,
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const request = new Request('http://gw.test/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(chatBody('hello')),
  });
  const ctx = createExecutionContext();
  const res = await createApp().fetch(request, { ...env, ...overrides }, ctx);
  const body: unknown = await res.json();
  await waitOnExecutionContext(ctx);
  return { status: res.status, headers: res.headers, body };
}

describe('when the Limiter Durable Object fails', () => {
  it('refuses a limited key with 503 limiter_unavailable by default (fail-closed)', async () => {
    expect(readLimitsConfig({}).failMode).toBe('closed');
    const { secret } = await limitedKey({ limits: { rpm: 100 } });
    const res = await callWith({ LIMITER: brokenNamespace(), LIMITS_FAIL_MODE: 'closed' }, secret);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.body).toMatchObject({ error: { code: 'limiter_unavailable', type: 'server_error' } });
  });

  it('lets a limited key through unmetered with LIMITS_FAIL_MODE=open', async () => {
    const { secret } = await limitedKey({ budgets: { usd: { day: 1 } } });
    const res = await callWith({ LIMITER: brokenNamespace(), LIMITS_FAIL_MODE: 'open' }, secret);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit-requests')).toBeNull();
  });

  it('never touches the Limiter for a key without limits, whatever the mode', async () => {
    const { secret } = await limitedKey();
    expect((await callWith({ LIMITER: brokenNamespace(), LIMITS_FAIL_MODE: 'closed' }, secret)).status).toBe(
      200,
    );
  });

  it('treats a Limiter that does not answer in time as failed', async () => {
    const principal = KeyRecord.parse({
      id: 'key_t',
      tenantId: 'ten_t',
      status: 'active',
      models: null,
      expiresAt: null,
      limits: { rpm: 1 },
    });
    const silent: LimiterRpc = { reserve: () => new Promise(() => {}), settle: async () => true };
    const config = { ...readLimitsConfig({ LIMITS_FAIL_MODE: 'closed' }), timeoutMs: 5 };
    const limiter = durableLimiter({
      objectFor: () => silent,
      prices: { overrides: async () => ({}), invalidate: () => {} },
      config,
    });
    const request = parseProxyRequest('chat', chatBody('hi'));
    const err = await limiter.reserve(principal, request).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 503, code: 'limiter_unavailable' });
  });
});
