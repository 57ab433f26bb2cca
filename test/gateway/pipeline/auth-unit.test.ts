import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticate, checkKey, MAX_KNOWN_HASHES } from '../../../src/pipeline/auth';
import { KeyRecord } from '../../../src/core/key-record';
import type { KeyStore } from '../../../src/storage/key-store';
import { sha256Hex } from '../../../src/util/crypto';

const NOW = 1_800_000_000_000;
const record = (fields: Partial<KeyRecord> = {}): KeyRecord =>
  KeyRecord.parse({
    id: 'key_1',
    tenantId: 'ten_1',
    status: 'active',
    models: null,
    expiresAt: null,
    ...fields,
  });

describe('checkKey', () => {
  it('accepts an active key of an active tenant, without expiry or before it', () => {
    expect(checkKey(record(), NOW)).toMatchObject({ ok: true, principal: { id: 'key_1' } });
    expect(checkKey(record({ expiresAt: NOW + 1 }), NOW).ok).toBe(true);
  });

  it('refuses an unknown key', () => {
    expect(checkKey(null, NOW)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('refuses a key from the very millisecond it expires', () => {
    expect(checkKey(record({ expiresAt: NOW }), NOW)).toEqual({ ok: false, reason: 'expired' });
    expect(checkKey(record({ expiresAt: NOW }), NOW - 1).ok).toBe(true);
  });

  it('refuses a revoked key and a disabled tenant, revocation first', () => {
    expect(checkKey(record({ status: 'revoked' }), NOW)).toEqual({ ok: false, reason: 'revoked' });
    expect(checkKey(record({ tenantStatus: 'disabled' }), NOW)).toEqual({
      ok: false,
      reason: 'tenant_disabled',
    });
    expect(
      checkKey(record({ status: 'revoked', tenantStatus: 'disabled', expiresAt: NOW - 1 }), NOW),
    ).toEqual({ ok: false, reason: 'revoked' });
  });
});

/** A key store over a map of hash → record, recording the hash of every lookup. */
function store(records: Map<string, KeyRecord>) {
  const looked: string[] = [];
  const keys: KeyStore = {
    findByHash: async (hash) => {
      looked.push(hash);
      return records.get(hash) ?? null;
    },
    invalidate: async () => {},
  };
  return { keys, looked };
}

const bearer = (secret: string) => new Headers({ authorization: `Bearer ${secret}` });

describe('authenticate, with the hashes of known keys kept', () => {
  afterEach(() => vi.restoreAllMocks());

  it('hashes a known key once, and still looks its record up (and checks it) on every request', async () => {
    const secret = `ew_${'k'.repeat(43)}`;
    const hash = await sha256Hex(secret);
    const records = new Map([[hash, record()]]);
    const { keys, looked } = store(records);
    const digest = vi.spyOn(crypto.subtle, 'digest');
    for (let i = 0; i < 3; i++) await authenticate(bearer(secret), false, keys, NOW);
    expect(digest).toHaveBeenCalledTimes(1);
    expect(looked).toEqual([hash, hash, hash]);
    // Revoked after its hash was kept: refused at once, because the record is read again.
    records.set(hash, record({ status: 'revoked' }));
    await expect(authenticate(bearer(secret), false, keys, NOW)).rejects.toMatchObject({
      status: 401,
      code: 'key_revoked',
    });
  });

  it('never keeps the hash of a key that matched nothing (a flood of random keys)', async () => {
    const { keys } = store(new Map());
    const digest = vi.spyOn(crypto.subtle, 'digest');
    const secret = `ew_${'u'.repeat(43)}`;
    for (let i = 0; i < 3; i++) {
      await expect(authenticate(bearer(secret), false, keys, NOW)).rejects.toMatchObject({
        code: 'invalid_api_key',
      });
    }
    expect(digest).toHaveBeenCalledTimes(3);
  });

  it(`keeps at most ${MAX_KNOWN_HASHES} hashes, dropping the oldest first`, async () => {
    const records = new Map<string, KeyRecord>();
    const secrets = Array.from({ length: MAX_KNOWN_HASHES + 1 }, (_, i) => `ew_cap_${i}`);
    for (const secret of secrets) records.set(await sha256Hex(secret), record());
    const { keys } = store(records);
    for (const secret of secrets) await authenticate(bearer(secret), false, keys, NOW);
    const digest = vi.spyOn(crypto.subtle, 'digest');
    await authenticate(bearer(secrets.at(-1)!), false, keys, NOW);
    expect(digest).toHaveBeenCalledTimes(0);
    await authenticate(bearer(secrets[0]!), false, keys, NOW);
    expect(digest).toHaveBeenCalledTimes(1);
  });
});
