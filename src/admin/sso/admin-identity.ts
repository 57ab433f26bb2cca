/**
 * The admin API's SSO door: a bearer OpenID Connect ID token (from the
 * configured provider, audience = OIDC_CLIENT_ID) or a Cloudflare Access
 * assertion (`Cf-Access-Jwt-Assertion`), verified and mapped by SSO_ROLE_MAP
 * like the dashboard's sign-in. The answer is the admin the identity is, a
 * refusal naming a verified identity that has no role, or null for a token
 * that does not verify (counted by the caller's throttle like a wrong token).
 * SSO that is configured but broken, or a provider that cannot be reached, is
 * a 503 in words: not the caller's fault, and not a guess.
 */
import type { AdminPrincipal } from '../../core/admin-principal';
import { GatewayError } from '../../core/errors';
import type { SsoConfig } from './config';
import { SsoUnavailable } from './fetch-json';
import type { IdentityResult, SsoVerifier } from './identities';
import { looksLikeJwt } from './jwt';
import { principalFor, type SsoIdentity } from './role-map';

export interface NoRole {
  refused: SsoIdentity;
}

export const isNoRole = (v: unknown): v is NoRole => typeof v === 'object' && v !== null && 'refused' in v;

/** Whether this request presents an SSO identity this deployment is configured to take. */
export function presentsSso(config: SsoConfig, bearer: string | null, assertion: string | null): boolean {
  return (
    (bearer !== null && config.oidc !== null && looksLikeJwt(bearer)) ||
    (bearer === null && assertion !== null && config.access !== null)
  );
}

export async function identifySso(
  config: SsoConfig,
  verifier: SsoVerifier,
  bearer: string | null,
  assertion: string | null,
): Promise<AdminPrincipal | NoRole | null> {
  const map = config.roleMap;
  if (!map) throw ssoBroken(config.problem ?? 'SSO_ROLE_MAP is not set');
  let result: IdentityResult;
  try {
    if (bearer !== null && config.oidc) result = await verifier.idToken(config.oidc, map, bearer);
    else if (assertion !== null && config.access)
      result = await verifier.accessAssertion(config.access, map, assertion);
    else return null;
  } catch (err) {
    if (err instanceof SsoUnavailable)
      throw ssoBroken(`the identity provider cannot be used: ${err.message}`);
    throw err;
  }
  if (!result.ok) return null;
  return principalFor(map, result.identity) ?? { refused: result.identity };
}

const ssoBroken = (why: string) =>
  new GatewayError(503, `Single sign-on is not available: ${why}. Admin tokens still work.`, {
    code: 'sso_unavailable',
  });

export const noRole = (who: SsoIdentity) =>
  new GatewayError(
    403,
    `The identity '${who.email ?? who.subject}' is given no role in this gateway: SSO_ROLE_MAP names none of its groups, nor its email or domain.`,
    { code: 'sso_no_role', type: 'permission_error' },
  );
