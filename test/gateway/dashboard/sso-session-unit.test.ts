import { describe, expect, it } from 'vitest';
import type { SsoIdentity } from '../../../src/admin/sso/role-map';
import { readSession, SESSION_TTL_MS } from '../../../src/dashboard/session';
import { FLOW_TTL_MS, openFlow, sealFlow } from '../../../src/dashboard/sso-flow';
import {
  accessSession,
  issueSsoSession,
  MAX_SSO_COOKIE,
  readSsoSession,
} from '../../../src/dashboard/sso-session';

const T0 = 1_800_000_000_000;
const who: SsoIdentity = {
  source: 'oidc',
  subject: 'sub-1',
  email: 'ada@example.com',
  emailVerified: true,
  name: 'Ada',
  groups: ['eg-admins'],
};

describe('SSO sessions', () => {
  it('round-trips the identity until it expires, and only with the same ADMIN_TOKEN', async () => {
    const issued = await issueSsoSession('tok', who, T0);
    expect(issued).not.toBeNull();
    const { cookie, session } = issued ?? { cookie: '', session: null };
    expect(await readSsoSession('tok', cookie, T0 + 1)).toEqual(session);
    expect((await readSsoSession('tok', cookie, T0 + 1))?.sso).toEqual(who);
    expect(await readSsoSession('tok', cookie, T0 + SESSION_TTL_MS)).toBeNull();
    expect(await readSsoSession('other-token', cookie, T0 + 1)).toBeNull();
    // A token session's reader does not take it, nor the other way round.
    expect(await readSession('tok', cookie, T0 + 1)).toBeNull();
  });

  it('refuses a cookie whose identity was changed', async () => {
    const { cookie } = (await issueSsoSession('tok', who, T0)) ?? { cookie: '' };
    const parts = cookie.split('.');
    const forged = btoa(
      JSON.stringify({ s: 'sub-1', e: 'ada@example.com', v: true, n: 'Ada', g: ['eg-owners'] }),
    )
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '');
    parts[2] = forged;
    expect(await readSsoSession('tok', parts.join('.'), T0 + 1)).toBeNull();
  });

  it('will not issue a cookie larger than a browser keeps', async () => {
    const huge = { ...who, groups: Array.from({ length: 200 }, (_, i) => `group-${i}-${'x'.repeat(20)}`) };
    expect(await issueSsoSession('tok', huge, T0)).toBeNull();
    expect(MAX_SSO_COOKIE).toBeLessThan(4096);
  });

  it("derives an Access session's id from its assertion, with a CSRF token bound to it", async () => {
    const a = await accessSession('tok', 'assertion-a', { ...who, source: 'access' }, T0 + 60_000);
    const again = await accessSession('tok', 'assertion-a', { ...who, source: 'access' }, T0 + 60_000);
    const b = await accessSession('tok', 'assertion-b', { ...who, source: 'access' }, T0 + 60_000);
    expect(a).toEqual(again);
    expect(a.id).not.toBe(b.id);
    expect(a.csrf).not.toBe(b.csrf);
    expect(a.access).toBe(true);
  });
});

describe('the sign-in flow cookie', () => {
  const flow = {
    state: 's',
    nonce: 'n',
    verifier: 'v',
    next: '/dashboard/logs',
    expiresAt: T0 + FLOW_TTL_MS,
  };

  it('opens what it sealed until it expires', async () => {
    const sealed = await sealFlow('tok', flow);
    expect(await openFlow('tok', sealed, T0)).toEqual(flow);
    expect(await openFlow('tok', sealed, T0 + FLOW_TTL_MS)).toBeNull();
    expect(await openFlow('other-token', sealed, T0)).toBeNull();
  });

  it('refuses a flow whose state or destination was changed', async () => {
    const sealed = await sealFlow('tok', flow);
    const [, mac] = sealed.split('.');
    const altered = await sealFlow('tok', { ...flow, next: '/dashboard/admins' });
    expect(await openFlow('tok', `${altered.split('.')[0]}.${mac}`, T0)).toBeNull();
  });
});
