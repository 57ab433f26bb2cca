/** Pure parts of the dashboard: sessions and the sealed secret (clock injected), form conversion, chart scale, redirects. */
import { describe, expect, it } from 'vitest';
import {
  keyBody,
  keyFormValues,
  rotateBody,
  utcInputToIso,
  utcInputToMs,
  type KeySettings,
} from '../../../src/dashboard/forms';
import { safeNext } from '../../../src/dashboard/guard';
import { FLASH_TTL_MS, openSecret, sealSecret } from '../../../src/dashboard/secret-flash';
import { BREAK_GLASS_ID } from '../../../src/core/admin-principal';
import { dashboardKeys } from '../../../src/dashboard/keys';
import { issueSession, readSession, SESSION_TTL_MS } from '../../../src/dashboard/session';
import { base64url } from '../../../src/util/crypto';
import { clip, niceMax } from '../../../src/dashboard/views/charts';

const T0 = Date.UTC(2026, 4, 1);

describe('sessions', () => {
  it('reads back a fresh session with the same CSRF token, until it expires', async () => {
    const { cookie, session } = await issueSession('tok', BREAK_GLASS_ID, T0);
    expect(await readSession('tok', cookie, T0 + 1)).toEqual(session);
    expect(await readSession('tok', cookie, T0 + SESSION_TTL_MS - 1)).toEqual(session);
    expect(await readSession('tok', cookie, T0 + SESSION_TTL_MS)).toBeNull();
  });

  it('gives each session its own CSRF token, and no session survives a token change', async () => {
    const a = await issueSession('tok', BREAK_GLASS_ID, T0);
    const b = await issueSession('tok', BREAK_GLASS_ID, T0);
    expect(a.session.csrf).not.toBe(b.session.csrf);
    expect(await readSession('new-tok', a.cookie, T0 + 1)).toBeNull();
  });

  it('names its admin under the MAC: another admin id in the same cookie is refused', async () => {
    const { cookie, session } = await issueSession('tok', 'adm_alice', T0);
    expect(session.adminId).toBe('adm_alice');
    expect((await readSession('tok', cookie, T0 + 1))?.adminId).toBe('adm_alice');
    const swapped = cookie.replace('.adm_alice.', `.${BREAK_GLASS_ID}.`);
    expect(swapped).not.toBe(cookie);
    expect(await readSession('tok', swapped, T0 + 1)).toBeNull();
  });

  it('treats a correctly signed v1 cookie (no admin) as invalid', async () => {
    const { mac } = await dashboardKeys('tok');
    const payload = `v1.${'a'.repeat(22)}.${T0 + 1e6}`;
    const sig = new Uint8Array(await crypto.subtle.sign('HMAC', mac, new TextEncoder().encode(payload)));
    expect(await readSession('tok', `${payload}.${base64url(sig)}`, T0)).toBeNull();
  });

  it('refuses malformed values without throwing', async () => {
    for (const v of [
      undefined,
      '',
      'v1',
      'v2.a.b.c',
      'v1.short.1.x',
      `v1.${'a'.repeat(22)}.${T0 + 1e6}.${'!'.repeat(43)}`,
    ]) {
      expect(await readSession('tok', v, T0)).toBeNull();
    }
  });
});

describe('sealed secret', () => {
  it('opens only for its key and session, before it expires', async () => {
    const sealed = await sealSecret('tok', 'sid', 'key_1', 'ew_secret', T0);
    expect(sealed).not.toContain('ew_secret');
    expect(await openSecret('tok', 'sid', 'key_1', sealed, T0 + 1)).toBe('ew_secret');
    expect(await openSecret('tok', 'sid', 'key_2', sealed, T0 + 1)).toBeNull();
    expect(await openSecret('tok', 'other', 'key_1', sealed, T0 + 1)).toBeNull();
    expect(await openSecret('tok2', 'sid', 'key_1', sealed, T0 + 1)).toBeNull();
    expect(await openSecret('tok', 'sid', 'key_1', sealed, T0 + FLASH_TTL_MS)).toBeNull();
    const flipped = sealed.slice(0, 20) + (sealed[20] === 'A' ? 'B' : 'A') + sealed.slice(21);
    expect(await openSecret('tok', 'sid', 'key_1', flipped, T0 + 1)).toBeNull();
  });
});

describe('forms', () => {
  it('turns a key form into the API body, leaving odd input for the API to refuse', () => {
    expect(
      keyBody({
        name: ' app ',
        models: 'mock/echo\nopenai/*, x/y',
        origins: 'https://app.example.com\n http://localhost:5173 ',
        'limits.rpm': '60',
        'limits.tpm': 'lots',
        'budgets.usd.day': '2.5',
        'budgets.tokens.total': '',
        expires_at: '2026-06-01T12:00',
        log_payload: 'on',
        on_unsupported: 'sometimes',
      }),
    ).toEqual({
      name: 'app',
      models: ['mock/echo', 'openai/*', 'x/y'],
      origins: ['https://app.example.com', 'http://localhost:5173'],
      limits: { rpm: 60, tpm: 'lots' },
      budgets: { usd: { day: 2.5 } },
      expires_at: Date.UTC(2026, 5, 1, 12),
      log_payload: true,
      on_unsupported: 'sometimes',
    });
    expect(keyBody({})).toEqual({
      name: '',
      models: null,
      origins: [],
      limits: {},
      budgets: {},
      expires_at: null,
      log_payload: false,
    });
    expect(rotateBody({ grace_seconds: '' })).toEqual({});
    expect(rotateBody({ grace_seconds: '300' })).toEqual({ grace_seconds: 300 });
  });

  it('reads form times as UTC', () => {
    expect(utcInputToMs('2026-05-01T00:30')).toBe(Date.UTC(2026, 4, 1, 0, 30));
    expect(utcInputToMs('tomorrow')).toBe('tomorrow');
    expect(utcInputToIso('2026-05-01T00:30')).toBe('2026-05-01T00:30Z');
    expect(utcInputToIso('1700000000000')).toBe('1700000000000');
  });

  it('round-trips a stored key through its edit form', () => {
    const key: KeySettings = {
      name: 'k',
      models: ['mock/echo'],
      origins: ['https://app.example.com'],
      limits: { rpm: 5 },
      budgets: { tokens: { month: 1000 } },
      expires_at: Date.UTC(2027, 0, 1),
      log_payload: false,
      on_unsupported: 'refuse',
    };
    expect(keyBody(keyFormValues(key))).toEqual(key);
    expect(keyBody(keyFormValues({ ...key, on_unsupported: 'drop' })).on_unsupported).toBe('drop');
  });
});

describe('chart scale and redirects', () => {
  it('rounds an axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 0.3, 1, 3, 7, 12, 100, 101, 0.0042].map(niceMax)).toEqual([
      1, 0.5, 1, 5, 10, 20, 100, 200, 0.005,
    ]);
  });

  it('cuts a chart label to its room with an ellipsis, leaving a short one whole', () => {
    expect(clip('mock/echo', 20)).toBe('mock/echo');
    expect(clip('x'.repeat(20), 20)).toBe('x'.repeat(20));
    expect(clip(`mock/${'m'.repeat(400)}`, 12)).toBe('mock/mmmmmm…');
    expect(clip('abcdef', 1)).toBe('a…');
  });

  it('only redirects inside the dashboard after sign-in', () => {
    expect(safeNext('/dashboard/logs?status=5xx&tenant_id=ten_a')).toBe(
      '/dashboard/logs?status=5xx&tenant_id=ten_a',
    );
    for (const bad of [
      undefined,
      'https://evil.example',
      '//evil.example',
      '/dashboardx',
      '/dashboard//evil',
      '/dashboard/../admin',
      '/dashboard/%2e%2e/admin',
      '/dashboard\\..\\admin',
      '/admin',
    ]) {
      expect(safeNext(bad)).toBe('/dashboard/tenants');
    }
  });
});
