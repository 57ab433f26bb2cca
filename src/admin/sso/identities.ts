/**
 * Turns a presented token into an SSO identity: an OpenID Connect ID token
 * (the dashboard's sign-in, or a bearer on the admin API, audience = the
 * client id) or a Cloudflare Access assertion (audience = the Access
 * application's AUD tag, keys at https://<team>/cdn-cgi/access/certs). The
 * issuer's metadata and keys are cached per isolate (discovery.ts, jwks.ts);
 * only /admin and /dashboard come here, never /v1.
 */
import type { AccessConfig, OidcConfig } from './config';
import { Discovery } from './discovery';
import type { HttpGet } from './fetch-json';
import { KeySets } from './jwks';
import { type JwtResult, verifyJwt } from './jwt';
import { claimValues, type RoleMap, type SsoIdentity } from './role-map';

export type IdentityResult =
  | { ok: true; identity: SsoIdentity /** The token's expiry, epoch ms. */; expiresAt: number }
  | Extract<JwtResult, { ok: false }>;

const text = (v: unknown, max = 256) => (typeof v === 'string' && v.length > 0 ? v.slice(0, max) : null);

/** What a verified token's claims say about its holder. */
export function identityOf(
  source: SsoIdentity['source'],
  claims: Record<string, unknown>,
  map: RoleMap,
): IdentityResult {
  const subject = text(claims.sub) ?? text(claims.common_name);
  if (!subject) return { ok: false, reason: 'malformed', detail: 'the token names no subject' };
  // Access verifies every email it puts in its assertion; an OIDC provider says so in email_verified.
  const verified = source === 'access' || claims.email_verified === true || claims.email_verified === 'true';
  const top = claimValues(claims, map.claim);
  // Access carries the identity provider's extra claims (groups among them) under `custom`.
  const groups = top.length === 0 && source === 'access' ? claimValues(claims, `custom.${map.claim}`) : top;
  return {
    ok: true,
    expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : 0,
    identity: {
      source,
      subject,
      email: text(claims.email)?.toLowerCase() ?? null,
      emailVerified: verified,
      name: text(claims.name) ?? text(claims.preferred_username),
      groups: groups.slice(0, 1000),
    },
  };
}

export class SsoVerifier {
  readonly discovery: Discovery;
  private readonly keySets: KeySets;

  constructor(
    readonly get: HttpGet,
    private readonly now: () => number = Date.now,
  ) {
    this.discovery = new Discovery(get, now);
    this.keySets = new KeySets(get, now);
  }

  /** An ID token from the provider: its signature, issuer, audience (the client id), times and nonce. */
  async idToken(oidc: OidcConfig, map: RoleMap, token: string, nonce?: string): Promise<IdentityResult> {
    const meta = await this.discovery.metadata(oidc.issuer);
    const result = await verifyJwt(token, (_kid, refresh) => this.keySets.keys(meta.jwks_uri, refresh), {
      issuer: oidc.issuer,
      audience: oidc.clientId,
      now: this.now(),
      nonce,
    });
    return result.ok ? identityOf('oidc', result.claims, map) : result;
  }

  /** A Cloudflare Access assertion (`Cf-Access-Jwt-Assertion`). */
  async accessAssertion(access: AccessConfig, map: RoleMap, token: string): Promise<IdentityResult> {
    const certs = `${access.issuer}/cdn-cgi/access/certs`;
    const result = await verifyJwt(token, (_kid, refresh) => this.keySets.keys(certs, refresh), {
      issuer: access.issuer,
      audience: access.audience,
      now: this.now(),
    });
    return result.ok ? identityOf('access', result.claims, map) : result;
  }
}

/** The isolate's verifier: its caches outlive requests. The global fetch is looked up per call. */
export const ssoVerifier = new SsoVerifier((url, init) => fetch(url, init));
