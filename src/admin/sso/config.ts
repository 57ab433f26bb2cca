/**
 * Single sign-on's settings, read from the Worker's vars and secrets (all
 * optional; with none set the gateway behaves as before, admin tokens only):
 * - OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET (absent: a public client,
 *   PKCE only), OIDC_PROVIDER_NAME (the sign-in button's words), OIDC_SCOPES,
 *   OIDC_CLIENT_AUTH (client_secret_basic or client_secret_post; by default
 *   basic unless the provider lists only post), OIDC_REDIRECT_URI (when the
 *   dashboard's public URL is not the one the Worker sees);
 * - CF_ACCESS_TEAM_DOMAIN (e.g. myteam.cloudflareaccess.com) and CF_ACCESS_AUD
 *   (the Access application's audience tag);
 * - SSO_ROLE_MAP: who gets which role (role-map.ts), shared by both.
 * A half-made configuration is a problem in words, not a crash: sign-in by SSO
 * says it, and admin tokens keep working. Parsed once per env object.
 */
import type { Bindings } from '../../env';
import { parseRoleMap, type RoleMap } from './role-map';

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  providerName: string;
  scopes: string;
  clientAuth: 'client_secret_basic' | 'client_secret_post' | null;
  redirectUri: string | null;
}

export interface AccessConfig {
  /** https://<team domain>, the assertion's issuer; its keys are at /cdn-cgi/access/certs. */
  issuer: string;
  audience: string;
}

export interface SsoConfig {
  oidc: OidcConfig | null;
  access: AccessConfig | null;
  roleMap: RoleMap | null;
  /** What keeps SSO from working, in words (missing or invalid settings); null when it is ready or off. */
  problem: string | null;
}

export type SsoEnv = Pick<
  Bindings,
  | 'OIDC_ISSUER'
  | 'OIDC_CLIENT_ID'
  | 'OIDC_CLIENT_SECRET'
  | 'OIDC_PROVIDER_NAME'
  | 'OIDC_SCOPES'
  | 'OIDC_CLIENT_AUTH'
  | 'OIDC_REDIRECT_URI'
  | 'CF_ACCESS_TEAM_DOMAIN'
  | 'CF_ACCESS_AUD'
  | 'SSO_ROLE_MAP'
>;

const read = (v: string | undefined) => (v?.trim() ? v.trim() : null);

export function readSsoConfig(env: SsoEnv): SsoConfig {
  const problems: string[] = [];
  const issuer = read(env.OIDC_ISSUER);
  const clientId = read(env.OIDC_CLIENT_ID);
  let oidc: OidcConfig | null = null;
  if (issuer || clientId) {
    if (!issuer || !clientId) problems.push('OIDC_ISSUER and OIDC_CLIENT_ID are both needed');
    else if (!/^https?:\/\/[^\s]+$/.test(issuer)) problems.push('OIDC_ISSUER is not a URL');
    else {
      const auth = read(env.OIDC_CLIENT_AUTH);
      if (auth && auth !== 'client_secret_basic' && auth !== 'client_secret_post')
        problems.push('OIDC_CLIENT_AUTH is client_secret_basic or client_secret_post');
      oidc = {
        issuer,
        clientId,
        clientSecret: read(env.OIDC_CLIENT_SECRET),
        providerName: read(env.OIDC_PROVIDER_NAME) ?? 'single sign-on',
        scopes: read(env.OIDC_SCOPES) ?? 'openid email profile',
        clientAuth: auth === 'client_secret_post' ? auth : auth === 'client_secret_basic' ? auth : null,
        redirectUri: read(env.OIDC_REDIRECT_URI),
      };
      if (!oidc.scopes.split(/\s+/).includes('openid')) problems.push("OIDC_SCOPES must include 'openid'");
    }
  }
  const team = read(env.CF_ACCESS_TEAM_DOMAIN);
  const aud = read(env.CF_ACCESS_AUD);
  let access: AccessConfig | null = null;
  if (team || aud) {
    if (!team || !aud) problems.push('CF_ACCESS_TEAM_DOMAIN and CF_ACCESS_AUD are both needed');
    else {
      const host = team.replace(/^https:\/\//, '').replace(/\/+$/, '');
      if (!/^[A-Za-z0-9.-]+$/.test(host)) problems.push('CF_ACCESS_TEAM_DOMAIN is not a host name');
      else access = { issuer: `https://${host}`, audience: aud };
    }
  }
  let roleMap: RoleMap | null = null;
  const mapText = read(env.SSO_ROLE_MAP);
  if (oidc || access) {
    if (!mapText) problems.push('SSO_ROLE_MAP is not set, so no identity has a role');
    else {
      const parsed = parseRoleMap(mapText);
      if (typeof parsed === 'string') problems.push(parsed);
      else roleMap = parsed;
    }
  }
  return { oidc, access, roleMap, problem: problems.length ? problems.join('; ') : null };
}

const memo = new WeakMap<object, SsoConfig>();

export function ssoConfig(env: SsoEnv): SsoConfig {
  let config = memo.get(env);
  if (!config) {
    config = readSsoConfig(env);
    memo.set(env, config);
  }
  return config;
}
