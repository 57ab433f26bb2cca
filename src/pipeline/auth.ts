/**
 * Stage 1, auth: `Authorization: Bearer <key>` (or `x-api-key` on /v1/messages,
 * as Anthropic's clients send it) → the key's record, checked against the clock.
 * The secret itself is only ever hashed; it never reaches a log or an error.
 */
import { createMiddleware } from 'hono/factory';
import { GatewayError } from '../errors';
import type { KeyRecord } from '../storage/key-record';
import { sha256Hex } from '../util/crypto';

export type Principal = KeyRecord;

export type KeyCheck =
  | { ok: true; principal: Principal }
  | { ok: false; reason: 'unknown' | 'revoked' | 'expired' | 'tenant_disabled' };

/** Pure: may this record be used now? */
export function checkKey(record: KeyRecord | null, now: number): KeyCheck {
  if (!record) return { ok: false, reason: 'unknown' };
  if (record.status !== 'active') return { ok: false, reason: 'revoked' };
  if (record.tenantStatus !== 'active') return { ok: false, reason: 'tenant_disabled' };
  if (record.expiresAt !== null && record.expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, principal: record };
}

const MESSAGES: Record<Exclude<KeyCheck, { ok: true }>['reason'], [string, string]> = {
  unknown: ['Incorrect API key provided.', 'invalid_api_key'],
  revoked: ['This API key has been revoked.', 'key_revoked'],
  expired: ['This API key has expired.', 'key_expired'],
  tenant_disabled: ['The tenant that owns this API key is disabled.', 'tenant_disabled'],
};

export function extractKey(headers: Headers, allowXApiKey: boolean): string | null {
  const authorization = headers.get('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1] ?? null;
  }
  return allowXApiKey ? headers.get('x-api-key')?.trim() || null : null;
}

export interface AuthOptions {
  now?: () => number;
}

export function auth(options: AuthOptions = {}) {
  const now = options.now ?? Date.now;
  return createMiddleware(async function authenticate(c, next) {
    const secret = extractKey(c.req.raw.headers, c.req.path.startsWith('/v1/messages'));
    if (!secret) {
      throw new GatewayError(401, 'Missing API key. Send it as "Authorization: Bearer <key>".', { code: 'missing_api_key', type: 'invalid_request_error' });
    }
    const record = await c.var.deps.keys.findByHash(await sha256Hex(secret));
    const check = checkKey(record, now());
    if (!check.ok) {
      const [message, code] = MESSAGES[check.reason];
      throw new GatewayError(401, message, { code, type: 'invalid_request_error' });
    }
    c.set('principal', check.principal);
    await next();
  });
}
