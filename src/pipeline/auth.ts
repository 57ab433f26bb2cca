/**
 * Stage 1, auth: `Authorization: Bearer <key>` (or `x-api-key` on /v1/messages,
 * as Anthropic's clients send it) → the key's record, checked against the clock.
 * The secret itself is only ever hashed; it never reaches a log or an error.
 */
import { GatewayError } from '../core/errors';
import type { KeyRecord } from '../core/key-record';
import type { Principal } from '../core/principal';
import type { KeyStore } from '../storage/key-store';
import { extractKey } from '../util/bearer';
import { setCapped } from '../util/capped-map';
import { sha256Hex } from '../util/crypto';

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

/**
 * The hashes of keys that matched a record, by secret: a client sends the same key on every request, and
 * hashing it is most of what auth costs in JavaScript. Only keys that were found are kept, so a flood of
 * random keys never enters it, and the oldest goes first once it holds MAX_KNOWN_HASHES. It only saves
 * the hash: the record is still looked up and checked on every request, so a revoked or expired key is
 * refused exactly as promptly as without it. The secrets stay in the isolate's memory, where every
 * request's key already passes; they are never logged or sent anywhere.
 */
const knownHashes = new Map<string, string>();
export const MAX_KNOWN_HASHES = 10_000;

async function findKey(secret: string, keys: KeyStore): Promise<KeyRecord | null> {
  const known = knownHashes.get(secret);
  const hash = known ?? (await sha256Hex(secret));
  const record = await keys.findByHash(hash);
  if (record && known === undefined) setCapped(knownHashes, secret, hash, MAX_KNOWN_HASHES);
  return record;
}

/** The caller's principal, or a 401 naming why the key was refused. `x-api-key` counts only where Anthropic's clients send it. */
export async function authenticate(
  headers: Headers,
  allowXApiKey: boolean,
  keys: KeyStore,
  now: number,
): Promise<Principal> {
  const secret = extractKey(headers, allowXApiKey);
  if (!secret) {
    throw new GatewayError(401, 'Missing API key. Send it as "Authorization: Bearer <key>".', {
      code: 'missing_api_key',
      type: 'invalid_request_error',
    });
  }
  const check = checkKey(await findKey(secret, keys), now);
  if (!check.ok) {
    const [message, code] = MESSAGES[check.reason];
    throw new GatewayError(401, message, { code, type: 'invalid_request_error' });
  }
  return check.principal;
}
