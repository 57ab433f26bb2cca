import { describe, expect, it } from 'vitest';
import { checkKey } from '../../../src/pipeline/auth';
import { KeyRecord } from '../../../src/core/key-record';

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
