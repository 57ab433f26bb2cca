import { describe, expect, it } from 'vitest';
import { readSsoConfig } from '../../../../src/admin/sso/config';
import { identityOf } from '../../../../src/admin/sso/identities';
import {
  claimValues,
  parseRoleMap,
  principalFor,
  type RoleMap,
  relevantGroups,
  type SsoIdentity,
} from '../../../../src/admin/sso/role-map';

const map = parseRoleMap(
  JSON.stringify({
    rules: [
      { group: 'eg-owners', role: 'owner' },
      { group: 'eg-admins', role: 'admin' },
      { group: 'eg-viewers', role: 'viewer' },
      { group: 'acme-admins', role: 'tenant_admin', tenants: ['ten_acme'] },
      { group: 'beta-admins', role: 'tenant_admin', tenants: ['ten_beta'] },
      { email: 'Boss@Example.com', role: 'owner' },
      { domain: 'example.org', role: 'viewer' },
    ],
  }),
) as RoleMap;

const person = (over: Partial<SsoIdentity>): SsoIdentity => ({
  source: 'oidc',
  subject: 'sub-1',
  email: 'someone@example.net',
  emailVerified: true,
  name: 'Some One',
  groups: [],
  ...over,
});

describe('SSO_ROLE_MAP', () => {
  it('maps each group to its role, as the actor sso:<email>', () => {
    expect(principalFor(map, person({ groups: ['eg-owners'] }))).toEqual({
      id: 'sso:someone@example.net',
      name: 'Some One (SSO)',
      role: 'owner',
      tenantIds: [],
    });
    expect(principalFor(map, person({ groups: ['eg-admins'] }))?.role).toBe('admin');
    expect(principalFor(map, person({ groups: ['eg-viewers'] }))?.role).toBe('viewer');
    expect(principalFor(map, person({ groups: ['acme-admins'] }))).toMatchObject({
      role: 'tenant_admin',
      tenantIds: ['ten_acme'],
    });
  });

  it('gives the broadest matching role, and a tenant_admin every tenant its rules name', () => {
    expect(principalFor(map, person({ groups: ['eg-viewers', 'eg-admins', 'acme-admins'] }))?.role).toBe(
      'admin',
    );
    expect(principalFor(map, person({ groups: ['acme-admins', 'beta-admins'] }))?.tenantIds).toEqual([
      'ten_acme',
      'ten_beta',
    ]);
  });

  it('refuses an identity no rule matches', () => {
    expect(principalFor(map, person({ groups: ['marketing'] }))).toBeNull();
  });

  it('matches email and domain rules only on a verified email, case-insensitively', () => {
    expect(principalFor(map, person({ email: 'boss@example.com' }))?.role).toBe('owner');
    expect(principalFor(map, person({ email: 'boss@example.com', emailVerified: false }))).toBeNull();
    expect(principalFor(map, person({ email: 'ann@example.org' }))?.role).toBe('viewer');
    expect(principalFor(map, person({ email: 'ann@notexample.org' }))).toBeNull();
  });

  it('keeps in a session only the groups some rule names', () => {
    expect(relevantGroups(map, ['x', 'eg-viewers', 'y', 'eg-viewers'])).toEqual(['eg-viewers']);
  });

  it('refuses a role map that is not JSON or breaks a rule, naming what is wrong', () => {
    expect(parseRoleMap('{')).toBe('SSO_ROLE_MAP is not JSON');
    expect(parseRoleMap(JSON.stringify({ rules: [{ group: 'g', role: 'tenant_admin' }] }))).toMatch(
      /tenant_admin rule names its tenants/,
    );
    expect(parseRoleMap(JSON.stringify({ rules: [{ group: 'g', email: 'a@b.c', role: 'owner' }] }))).toMatch(
      /exactly one of group, email or domain/,
    );
    expect(parseRoleMap(JSON.stringify({ rules: [{ group: 'g', role: 'superuser' }] }))).toMatch(
      /rules\.0\.role/,
    );
  });

  it('reads groups from any claim, nested by a dotted path', () => {
    const claims = { groups: ['a', 1, 'b'], realm_access: { roles: ['kc-admin'] }, hd: 'example.com' };
    expect(claimValues(claims, 'groups')).toEqual(['a', 'b']);
    expect(claimValues(claims, 'realm_access.roles')).toEqual(['kc-admin']);
    expect(claimValues(claims, 'hd')).toEqual(['example.com']);
    expect(claimValues(claims, 'nope.deeper')).toEqual([]);
  });

  it("reads an Access assertion's groups under custom, and trusts its email", () => {
    const result = identityOf(
      'access',
      { sub: 's', email: 'X@Example.com', custom: { groups: ['eg-admins'] } },
      map,
    );
    expect(result).toMatchObject({
      ok: true,
      identity: { email: 'x@example.com', emailVerified: true, groups: ['eg-admins'] },
    });
    const oidc = identityOf('oidc', { sub: 's', email: 'x@example.com' }, map);
    expect(oidc).toMatchObject({ ok: true, identity: { emailVerified: false } });
  });
});

describe('SSO configuration', () => {
  it('is off with nothing set', () => {
    expect(readSsoConfig({})).toEqual({ oidc: null, access: null, roleMap: null, problem: null });
  });

  it('names what is missing or wrong', () => {
    expect(readSsoConfig({ OIDC_ISSUER: 'https://idp.example.com' }).problem).toMatch(/OIDC_CLIENT_ID/);
    expect(readSsoConfig({ CF_ACCESS_TEAM_DOMAIN: 'team.cloudflareaccess.com' }).problem).toMatch(
      /CF_ACCESS_AUD/,
    );
    expect(readSsoConfig({ OIDC_ISSUER: 'https://idp.example.com', OIDC_CLIENT_ID: 'c' }).problem).toMatch(
      /SSO_ROLE_MAP is not set/,
    );
  });

  it('reads a full configuration', () => {
    const config = readSsoConfig({
      OIDC_ISSUER: 'https://idp.example.com',
      OIDC_CLIENT_ID: 'c',
      OIDC_PROVIDER_NAME: 'Okta',
      CF_ACCESS_TEAM_DOMAIN: 'https://team.cloudflareaccess.com/',
      CF_ACCESS_AUD: 'aud-tag',
      SSO_ROLE_MAP: JSON.stringify({ claim: 'roles', rules: [{ group: 'Admin', role: 'admin' }] }),
    });
    expect(config.problem).toBeNull();
    expect(config.oidc).toMatchObject({
      clientSecret: null,
      providerName: 'Okta',
      scopes: 'openid email profile',
    });
    expect(config.access).toEqual({ issuer: 'https://team.cloudflareaccess.com', audience: 'aud-tag' });
    expect(config.roleMap?.claim).toBe('roles');
  });
});
