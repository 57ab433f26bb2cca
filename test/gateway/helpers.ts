/** Shared test helpers: seed keys straight into D1, call the gateway, read SSE. */
import { env, SELF } from 'cloudflare:test';
import { KEY_PREFIX } from '../../src/core/key-record';
import { randomToken, sha256Hex } from '../../src/util/crypto';

export interface SeedKey {
  tenantId?: string;
  models?: string[] | null;
  expiresAt?: number | null;
  status?: 'active' | 'revoked';
  cache?: Record<string, unknown>;
  limits?: Record<string, unknown>;
  budgets?: Record<string, unknown>;
  logPayload?: boolean;
  /** The key's guardrail policy. */
  guardrails?: Record<string, unknown>;
  /** The tenant's guardrail policy, set when the tenant is created here (use a fresh tenant id). */
  tenantGuardrails?: Record<string, unknown>;
}

/** Inserts a tenant (if new) and a key straight into D1, as the admin API would store them. */
export async function seedKey(
  options: SeedKey = {},
): Promise<{ id: string; secret: string; hash: string; tenantId: string }> {
  const secret = KEY_PREFIX + randomToken();
  const hash = await sha256Hex(secret);
  const id = `key_${randomToken(9)}`;
  const tenantId = options.tenantId ?? 'ten_test';
  const now = Date.now();
  await env.DB.batch([
    env.DB.prepare(
      'INSERT OR IGNORE INTO tenants (id, name, guardrails, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    ).bind(tenantId, tenantId, JSON.stringify(options.tenantGuardrails ?? {}), now, now),
    env.DB.prepare(
      `INSERT INTO api_keys (id, tenant_id, name, key_hash, hint, status, models, expires_at, cache, limits, budgets, guardrails, log_payload, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).bind(
      id,
      tenantId,
      'test',
      hash,
      `${KEY_PREFIX}…${secret.slice(-4)}`,
      options.status ?? 'active',
      options.models ? JSON.stringify(options.models) : null,
      options.expiresAt ?? null,
      JSON.stringify(options.cache ?? {}),
      JSON.stringify(options.limits ?? {}),
      JSON.stringify(options.budgets ?? {}),
      JSON.stringify(options.guardrails ?? {}),
      options.logPayload ? 1 : 0,
      now,
      now,
    ),
  ]);
  return { id, secret, hash, tenantId };
}

export function post(
  path: string,
  body: unknown,
  key: string | null,
  headers: Record<string, string> = {},
): Promise<Response> {
  return SELF.fetch(`http://gw.test${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface ParsedEvent {
  event: string | null;
  data: string;
}

/** Reads a whole SSE body into events (test-side parser, independent of src/sse). */
export async function readSse(res: Response): Promise<ParsedEvent[]> {
  const text = await res.text();
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      let event: string | null = null;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      return { event, data: data.join('\n') };
    });
}

export function chatBody(content: string, extra: Record<string, unknown> = {}) {
  return { model: 'mock/echo', messages: [{ role: 'user', content }], ...extra };
}

/** Runs `run(0…n-1)` with at most `width` in flight; results in index order. */
export async function inParallel<T>(n: number, width: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await run(i);
      }
    }),
  );
  return out;
}

/** The real KV namespace, counting the writes that reach it. */
export function countingKv(kv: KVNamespace): { kv: KVNamespace; writes: string[] } {
  const writes: string[] = [];
  const wrapped = new Proxy(kv, {
    get(target, prop) {
      if (prop === 'put' || prop === 'delete') {
        return (key: string, ...rest: unknown[]) => {
          writes.push(`${String(prop)} ${key}`);
          return (target[prop] as (...args: unknown[]) => Promise<void>)(key, ...rest);
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { kv: wrapped, writes };
}
