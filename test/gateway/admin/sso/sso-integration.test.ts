/**
 * Single sign-on through the worker, with a configured OpenID Connect provider and Cloudflare Access:
 * the admin API takes a bearer ID token and an Access assertion (audit rows name the identity), the
 * dashboard takes an Access assertion as its session and signs in through the whole code flow, each
 * mapped by SSO_ROLE_MAP; unverifiable tokens and identities with no role are refused. The providers'
 * discovery document, keys and token endpoint are a stub standing in for the outbound fetch.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SsoEnv } from '../../../../src/admin/sso/config';
import { codeChallenge } from '../../../../src/admin/sso/pkce';
import worker from '../../../../src/index';
import { createTenant } from '../../admin-helpers';
import { claimsFor, makeKey, signJwt, type TestKey } from '../../sso-helpers';

const IDP = 'https://idp.sso-it.test';
const TEAM = 'https://team.sso-it.test';
const CLIENT = 'edgeway-it';
const AUD = 'access-aud-it';
/** Its own client address, so refused tokens here never throttle other files' requests. */
const CLIENT_IP = '203.0.113.41';

let tenantA: string;
let tenantB: string;
let idpKey: TestKey;
let accessKey: TestKey;
let ssoEnv: typeof env & SsoEnv;

/** What the stub token endpoint was sent, and the ID token claims it answers with. */
const tokenEndpoint = {
  forms: [] as URLSearchParams[],
  auth: [] as (string | null)[],
  claims: {} as Record<string, unknown>,
};

function stubProviders() {
  const original = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    switch (request.url) {
      case `${IDP}/.well-known/openid-configuration`:
        return Response.json({
          issuer: IDP,
          authorization_endpoint: `${IDP}/authorize`,
          token_endpoint: `${IDP}/token`,
          jwks_uri: `${IDP}/jwks`,
        });
      case `${IDP}/jwks`:
        return Response.json({ keys: [idpKey.jwk] });
      case `${TEAM}/cdn-cgi/access/certs`:
        return Response.json({ keys: [accessKey.jwk], public_cert: { kid: accessKey.kid, cert: '' } });
      case `${IDP}/token`: {
        tokenEndpoint.forms.push(new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer())));
        tokenEndpoint.auth.push(request.headers.get('authorization'));
        return Response.json({
          access_token: 'at',
          token_type: 'Bearer',
          id_token: await signJwt(idpKey, tokenEndpoint.claims),
        });
      }
      default:
        return original(request);
    }
  });
}

async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const headers = new Headers(init.headers);
  headers.set('cf-connecting-ip', CLIENT_IP);
  const res = await worker.fetch(
    new Request(`http://gw.test${path}`, { ...init, headers, redirect: 'manual' }),
    ssoEnv,
    ctx,
  );
  const body = await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(body, res);
}

const now = () => Date.now();
const accessToken = (extra: Record<string, unknown>) =>
  signJwt(accessKey, claimsFor(TEAM, AUD, now(), { aud: [AUD], type: 'app', ...extra }));
const idToken = (extra: Record<string, unknown>) => signJwt(idpKey, claimsFor(IDP, CLIENT, now(), extra));

beforeAll(async () => {
  idpKey = await makeKey('RS256', 'idp-1');
  accessKey = await makeKey('RS256', 'access-1');
  tenantA = (await createTenant('sso-it-a')).id;
  tenantB = (await createTenant('sso-it-b')).id;
  ssoEnv = {
    ...env,
    OIDC_ISSUER: IDP,
    OIDC_CLIENT_ID: CLIENT,
    OIDC_CLIENT_SECRET: 'it-secret',
    OIDC_PROVIDER_NAME: 'Test IdP',
    CF_ACCESS_TEAM_DOMAIN: 'team.sso-it.test',
    CF_ACCESS_AUD: AUD,
    SSO_ROLE_MAP: JSON.stringify({
      rules: [
        { group: 'owners', role: 'owner' },
        { group: 'viewers', role: 'viewer' },
        { group: 'a-admins', role: 'tenant_admin', tenants: [tenantA] },
        { email: 'ops@example.com', role: 'admin' },
      ],
    }),
  } as typeof ssoEnv;
});
beforeEach(stubProviders);
afterEach(() => vi.restoreAllMocks());

describe('the admin API with SSO identities', () => {
  it('takes a bearer ID token mapped to its role, and audits its changes as sso:<email>', async () => {
    const token = await idToken({
      email: 'olga@example.com',
      email_verified: true,
      name: 'Olga',
      groups: ['owners'],
    });
    const me = await send('/admin/me', { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({
      id: 'sso:olga@example.com',
      name: 'Olga (SSO)',
      role: 'owner',
      tenant_ids: [],
    });

    const renamed = await send(`/admin/tenants/${tenantB}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'sso-it-b2' }),
    });
    expect(renamed.status).toBe(200);
    const audit = await send(
      `/admin/audit?resource_id=${tenantB}&actor_id=${encodeURIComponent('sso:olga@example.com')}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    const rows = (await audit.json()) as {
      data: { actor: { id: string; name: string }; operation: string }[];
    };
    expect(rows.data[0]).toMatchObject({
      actor: { id: 'sso:olga@example.com', name: 'Olga (SSO)' },
      operation: 'PATCH /admin/tenants/{id}',
    });
  });

  it('takes a Cloudflare Access assertion; a tenant_admin group reaches only its tenant', async () => {
    const assertion = await accessToken({ email: 'tina@example.com', custom: { groups: ['a-admins'] } });
    const headers = { 'cf-access-jwt-assertion': assertion };
    const me = await send('/admin/me', { headers });
    expect(await me.json()).toMatchObject({
      id: 'sso:tina@example.com',
      role: 'tenant_admin',
      tenant_ids: [tenantA],
    });
    expect((await send(`/admin/tenants/${tenantA}`, { headers })).status).toBe(200);
    expect((await send(`/admin/tenants/${tenantB}`, { headers })).status).toBe(403);
    const list = (await (await send('/admin/tenants', { headers })).json()) as { data: { id: string }[] };
    expect(list.data.map((t) => t.id)).toEqual([tenantA]);
  });

  it('maps a verified email rule, and refuses a verified identity with no role with a 403', async () => {
    const ops = await accessToken({ email: 'ops@example.com' });
    const me = await send('/admin/me', { headers: { 'cf-access-jwt-assertion': ops } });
    expect(await me.json()).toMatchObject({ role: 'admin' });

    const stranger = await idToken({ email: 'eve@example.com', email_verified: true, groups: ['marketing'] });
    const res = await send('/admin/me', { headers: { authorization: `Bearer ${stranger}` } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      error: { code: 'sso_no_role', message: expect.stringContaining('eve@example.com') },
    });
  });

  it('refuses tokens that do not verify: wrong audience, expired, foreign key, Access token as bearer', async () => {
    const stranger = await makeKey('RS256', 'idp-1');
    const bad = [
      await idToken({ aud: 'someone-else', groups: ['owners'] }),
      await idToken({ exp: Math.floor(now() / 1000) - 600, groups: ['owners'] }),
      await signJwt(stranger, claimsFor(IDP, CLIENT, now(), { groups: ['owners'] })),
      await accessToken({ groups: ['owners'] }),
    ];
    for (const token of bad) {
      const res = await send('/admin/me', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(401);
    }
    const forgedAccess = await signJwt(stranger, claimsFor(TEAM, AUD, now(), { email: 'ops@example.com' }), {
      kid: 'access-1',
    });
    expect((await send('/admin/me', { headers: { 'cf-access-jwt-assertion': forgedAccess } })).status).toBe(
      401,
    );
  });

  it('keeps admin tokens working beside SSO', async () => {
    const res = await send('/admin/me', { headers: { authorization: 'Bearer test-admin-token' } });
    expect(await res.json()).toMatchObject({ id: 'break-glass', role: 'owner' });
  });
});

describe('the dashboard with SSO', () => {
  it('is a session for a Cloudflare Access assertion, with no sign-in, and signs out at Access', async () => {
    const assertion = await accessToken({ email: 'vic@example.com', custom: { groups: ['viewers'] } });
    const page = await send('/dashboard/tenants', { headers: { 'cf-access-jwt-assertion': assertion } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Signed in as <strong>vic@example.com (Cloudflare Access)</strong> (viewer)');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const out = await send('/dashboard/logout', {
      method: 'POST',
      headers: {
        'cf-access-jwt-assertion': assertion,
        origin: 'http://gw.test',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ _csrf: csrf }),
    });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/cdn-cgi/access/logout');
    // The same assertion is revoked: the dashboard no longer takes it.
    const after = await send('/dashboard/tenants', { headers: { 'cf-access-jwt-assertion': assertion } });
    expect(after.status).toBe(303);
  });

  it('shows a clear page to an Access identity with no role', async () => {
    const assertion = await accessToken({ email: 'nobody@example.net' });
    const page = await send('/dashboard/tenants', { headers: { 'cf-access-jwt-assertion': assertion } });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('gives that identity no role');
  });

  it('signs in through the OpenID Connect code flow with PKCE, state and nonce', async () => {
    const login = await (await send('/dashboard/login')).text();
    expect(login).toContain('Sign in with Test IdP');

    const start = await send('/dashboard/sso/start?next=%2Fdashboard%2Ftenants');
    expect(start.status).toBe(303);
    const authorize = new URL(start.headers.get('location') ?? '');
    expect(authorize.origin + authorize.pathname).toBe(`${IDP}/authorize`);
    const q = authorize.searchParams;
    expect(q.get('code_challenge_method')).toBe('S256');
    const flowCookie = /edgeway_sso=([^;]+)/.exec(start.headers.get('set-cookie') ?? '')?.[1] ?? '';
    expect(start.headers.get('set-cookie')).toMatch(/SameSite=Lax/i);

    // A callback with someone else's state is refused.
    const wrongState = await send(`/dashboard/sso/callback?code=c1&state=nope`, {
      headers: { cookie: `edgeway_sso=${flowCookie}` },
    });
    expect(wrongState.status).toBe(400);

    tokenEndpoint.claims = claimsFor(IDP, CLIENT, now(), {
      nonce: q.get('nonce'),
      email: 'ada@example.com',
      email_verified: true,
      name: 'Ada',
      groups: ['a-admins', 'unrelated-group'],
    });
    const callback = await send(`/dashboard/sso/callback?code=c2&state=${q.get('state')}`, {
      headers: { cookie: `edgeway_sso=${flowCookie}` },
    });
    expect(callback.status).toBe(200);
    expect(await callback.text()).toContain('url=/dashboard/tenants');
    const form = tokenEndpoint.forms.at(-1);
    expect(form?.get('code')).toBe('c2');
    expect(form?.get('redirect_uri')).toBe('http://gw.test/dashboard/sso/callback');
    expect(await codeChallenge(form?.get('code_verifier') ?? '')).toBe(q.get('code_challenge'));
    expect(tokenEndpoint.auth.at(-1)).toBe(`Basic ${btoa(`${CLIENT}:it-secret`)}`);

    const session = /edgeway_session=([^;]+)/.exec(callback.headers.get('set-cookie') ?? '')?.[1] ?? '';
    expect(session).toMatch(/^v3\./);
    const tenants = await send('/dashboard/tenants', { headers: { cookie: `edgeway_session=${session}` } });
    const html = await tenants.text();
    expect(html).toContain('Signed in as <strong>Ada (SSO)</strong> (tenant_admin)');
    expect(html).toContain(tenantA);
    expect(html).not.toContain(tenantB);

    // The role is worked out on every page: without its rule, the same session signs in no more.
    const rules = JSON.parse(ssoEnv.SSO_ROLE_MAP ?? '{}').rules.filter(
      (r: { group?: string }) => r.group !== 'a-admins',
    );
    const narrowed = { ...ssoEnv, SSO_ROLE_MAP: JSON.stringify({ rules }) };
    const ctx = createExecutionContext();
    const gone = await worker.fetch(
      new Request('http://gw.test/dashboard/tenants', {
        headers: { cookie: `edgeway_session=${session}` },
        redirect: 'manual',
      }),
      narrowed,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(gone.status).toBe(303);
    expect(gone.headers.get('location')).toMatch(/^\/dashboard\/login\?next=/);
  });

  it('refuses an ID token whose nonce is not the sign-in’s own', async () => {
    const start = await send('/dashboard/sso/start');
    const q = new URL(start.headers.get('location') ?? '').searchParams;
    const flowCookie = /edgeway_sso=([^;]+)/.exec(start.headers.get('set-cookie') ?? '')?.[1] ?? '';
    tokenEndpoint.claims = claimsFor(IDP, CLIENT, now(), { nonce: 'replayed', groups: ['owners'] });
    const callback = await send(`/dashboard/sso/callback?code=c3&state=${q.get('state')}`, {
      headers: { cookie: `edgeway_sso=${flowCookie}` },
    });
    expect(callback.status).toBe(401);
    expect(await callback.text()).toContain('nonce');
    expect(callback.headers.get('set-cookie') ?? '').not.toContain('edgeway_session=v3');
  });
});
