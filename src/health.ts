/**
 * What the gateway says about itself, and what it refuses when misconfigured.
 * - GET /healthz: answers without touching storage. 200 `{ ok: true }`, or 503
 *   with the configuration problems (each naming its variable, never its value).
 * - GET /healthz?deep=1 (or /healthz/deep): also checks D1 (SELECT 1), KV (a
 *   get), the log queue (its binding; nothing is sent) and the Limiter Durable
 *   Object (a read-only dump), in parallel, each bounded by a timeout, with
 *   per-component ok/error and latency. The endpoint is public, so a deep
 *   answer is reused for DEEP_REUSE_MS per isolate: a flood of deep checks costs
 *   the storage a few calls per isolate, not one set per request.
 * While the configuration has problems /v1 refuses every request (the first
 * pipeline stage, src/pipeline/proxy.ts, with config.ts `misconfigured`); the
 * admin API and the dashboard stay up, so the operator can still look and fix.
 */
import { within } from './util/within';
import { Hono, type Context } from 'hono';
import type { AppEnv } from './context';
import { limiterObjects } from './durable/limiter';
import type { Bindings } from './env';

export const CHECK_TIMEOUT_MS = 2_000;
export const DEEP_REUSE_MS = 5_000;

export interface ComponentHealth {
  readonly ok: boolean;
  readonly latency_ms: number;
  readonly error?: string;
  readonly detail?: string;
}

export type Component = 'd1' | 'kv' | 'queue' | 'limiter';

export interface HealthOptions {
  /** Per-component timeout (tests lower it). */
  readonly timeoutMs?: number;
}

export function healthRoutes(options: HealthOptions = {}) {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const health = new Hono<AppEnv>();
  const answer = async (c: Context<AppEnv>, deep: boolean) => {
    const problems = c.var.deps.problems;
    const configOk = problems.length === 0;
    c.header('cache-control', 'no-store');
    if (!deep) return configOk ? c.json({ ok: true }) : c.json({ ok: false, problems }, 503);
    const checks = await deepChecks(c.env, timeoutMs, Date.now());
    const ok = configOk && Object.values(checks).every((check) => check.ok);
    return c.json({ ok, problems, checks }, ok ? 200 : 503);
  };
  health.get('/', (c) => answer(c, isSet(c.req.query('deep'))));
  health.get('/deep', (c) => answer(c, true));
  return health;
}

const isSet = (flag: string | undefined) => flag !== undefined && !/^(0|false|no)$/i.test(flag);

const reused = new WeakMap<object, { at: number; checks: Promise<Record<Component, ComponentHealth>> }>();

function deepChecks(
  env: Bindings,
  timeoutMs: number,
  now: number,
): Promise<Record<Component, ComponentHealth>> {
  const last = reused.get(env);
  if (last && now - last.at < DEEP_REUSE_MS) return last.checks;
  const checks = runChecks(env, timeoutMs);
  reused.set(env, { at: now, checks });
  return checks;
}

async function runChecks(env: Bindings, timeoutMs: number): Promise<Record<Component, ComponentHealth>> {
  const [d1, kv, queue, limiter] = await Promise.all([
    probe(timeoutMs, async () => {
      await env.DB.prepare('SELECT 1 AS one').first();
      return undefined;
    }),
    probe(timeoutMs, async () => {
      await env.KV_KEYS.get('healthz');
      return undefined;
    }),
    probe(timeoutMs, async () => queueState(env)),
    probe(timeoutMs, async () => {
      // A tenant id no real tenant has (those are `ten_…`): a read of empty state.
      await limiterObjects(env.LIMITER)('healthz').dump(null);
      return undefined;
    }),
  ]);
  return { d1, kv, queue, limiter };
}

/** The queue is checked by its binding only: a probe event would land in the request log. */
function queueState(env: Bindings): string {
  const sink = env.LOG_SINK?.trim().toLowerCase() || 'queue';
  if (sink !== 'queue') return `not used (LOG_SINK=${sink === 'off' ? 'off' : 'console'})`;
  if (!env.LOG_QUEUE) throw new Error('LOG_QUEUE is not bound; request logs go to the console only');
  return 'bound';
}

async function probe(timeoutMs: number, check: () => Promise<string | undefined>): Promise<ComponentHealth> {
  const started = performance.now();
  try {
    const detail = await within(timeoutMs, check());
    return { ok: true, latency_ms: elapsed(started), ...(detail ? { detail } : {}) };
  } catch (err) {
    return { ok: false, latency_ms: elapsed(started), error: describe(err) };
  }
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10;
const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 200);
