/** /healthz?deep=1 and /healthz/deep: D1, KV, the log queue and the Limiter, each timed and bounded. */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app';
import type { Bindings } from '../../../src/env';
import type { ComponentHealth } from '../../../src/health';

interface Deep {
  ok: boolean;
  problems: { variable: string }[];
  checks: Record<'d1' | 'kv' | 'queue' | 'limiter', ComponentHealth>;
}

async function deep(overrides: Partial<Bindings> & Record<string, unknown>, timeoutMs = 2000) {
  const ctx = createExecutionContext();
  const app = createApp({ health: { timeoutMs } });
  const res = await app.fetch(new Request('http://gw.test/healthz?deep=1'), { ...env, ...overrides }, ctx);
  const body = (await res.json()) as Deep;
  await waitOnExecutionContext(ctx);
  return { status: res.status, body };
}

describe('the deep health check', () => {
  it('checks every component and reports each ok with its latency', async () => {
    for (const path of ['/healthz?deep=1', '/healthz/deep']) {
      const res = await SELF.fetch(`http://gw.test${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = (await res.json()) as Deep;
      expect(body.ok).toBe(true);
      expect(body.problems).toEqual([]);
      expect(Object.keys(body.checks).sort()).toEqual(['d1', 'kv', 'limiter', 'queue']);
      for (const [name, check] of Object.entries(body.checks)) {
        expect(check.ok, name).toBe(true);
        expect(check.latency_ms, name).toBeGreaterThanOrEqual(0);
      }
      expect(body.checks.queue.detail).toBe('bound');
    }
  });

  it('stays shallow without the flag (no storage touched)', async () => {
    const res = await SELF.fetch('http://gw.test/healthz?deep=0');
    expect(await res.json()).toEqual({ ok: true });
  });

  it('reports a failing D1 as d1 error and 503, the others still ok', async () => {
    const DB = {
      prepare: () => {
        throw new Error('D1_ERROR: database unavailable');
      },
    } as unknown as D1Database;
    const { status, body } = await deep({ DB });
    expect(status).toBe(503);
    expect(body.ok).toBe(false);
    expect(body.checks.d1).toMatchObject({ ok: false, error: 'D1_ERROR: database unavailable' });
    expect(body.checks.kv.ok).toBe(true);
    expect(body.checks.limiter.ok).toBe(true);
  });

  it('times out a component that does not answer, without waiting for it', async () => {
    const KV_KEYS = { ...env.KV_KEYS, get: () => new Promise(() => {}) } as unknown as KVNamespace;
    const started = Date.now();
    const { status, body } = await deep({ KV_KEYS }, 50);
    expect(status).toBe(503);
    expect(body.checks.kv).toMatchObject({ ok: false, error: 'no answer within 50 ms' });
    expect(body.checks.d1.ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('reports a Limiter that cannot be reached', async () => {
    const LIMITER = {
      idFromName: (name: string) => ({ name }),
      get: () => ({ dump: () => Promise.reject(new Error('Durable Object is overloaded')) }),
    } as unknown as Bindings['LIMITER'];
    const { status, body } = await deep({ LIMITER });
    expect(status).toBe(503);
    expect(body.checks.limiter).toMatchObject({ ok: false, error: 'Durable Object is overloaded' });
  });

  it('checks the queue by its binding only, and only when LOG_SINK uses it', async () => {
    const missing = await deep({ LOG_QUEUE: undefined });
    expect(missing.status).toBe(503);
    expect(missing.body.checks.queue).toMatchObject({
      ok: false,
      error: expect.stringContaining('LOG_QUEUE'),
    });
    const off = await deep({ LOG_QUEUE: undefined, LOG_SINK: 'off' });
    expect(off.status).toBe(200);
    expect(off.body.checks.queue).toMatchObject({ ok: true, detail: 'not used (LOG_SINK=off)' });
  });

  it('includes configuration problems', async () => {
    const { status, body } = await deep({ MAX_BODY_BYTES: 'lots' });
    expect(status).toBe(503);
    expect(body.problems.map((p) => p.variable)).toEqual(['MAX_BODY_BYTES']);
    expect(body.checks.d1.ok).toBe(true);
  });
});
