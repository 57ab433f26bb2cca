/**
 * Who an SSO identity is in this gateway: SSO_ROLE_MAP turns an identity's
 * groups (any claim, `groups` by default; a dotted path reaches a nested one,
 * e.g. Keycloak's `realm_access.roles`), its verified email or its email's
 * domain into one of the four roles, and a tenant_admin into its tenants
 * (pure). Every matching rule counts: the broadest role wins (owner, then
 * admin, then viewer, then tenant_admin) and a tenant_admin gets every
 * tenant its matching rules name. An identity no rule matches has no role and
 * is refused. Email and domain rules match only an email the provider
 * verified (`email_verified`, or Cloudflare Access, which verifies every
 * email), so an unverified address cannot claim someone else's role.
 *
 *   {"claim": "groups", "rules": [
 *     {"group": "edgeway-owners", "role": "owner"},
 *     {"email": "ops@example.com", "role": "admin"},
 *     {"domain": "example.com", "role": "viewer"},
 *     {"group": "acme-admins", "role": "tenant_admin", "tenants": ["ten_…"]}]}
 */
import * as z from 'zod';
import { ADMIN_ROLES, type AdminPrincipal, type AdminRole } from '../../core/admin-principal';

/** What a verified token says about its holder, kept for the length of a session. */
export interface SsoIdentity {
  /** Which door it came through: the dashboard's OIDC sign-in or bearer, or Cloudflare Access. */
  source: 'oidc' | 'access';
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  /** The values of the role map's claim (only those some rule names, once inside a session). */
  groups: string[];
}

const Rule = z
  .strictObject({
    group: z.string().min(1).optional(),
    email: z.string().min(3).optional(),
    domain: z.string().min(1).optional(),
    role: z.enum(ADMIN_ROLES),
    tenants: z.array(z.string().min(1)).optional(),
  })
  .refine((r) => [r.group, r.email, r.domain].filter((v) => v !== undefined).length === 1, {
    message: 'each rule names exactly one of group, email or domain',
  })
  .refine((r) => (r.role === 'tenant_admin') === (r.tenants !== undefined && r.tenants.length > 0), {
    message: 'a tenant_admin rule names its tenants (at least one); other roles name none',
  });

export const RoleMap = z.strictObject({
  claim: z
    .string()
    .regex(/^[A-Za-z0-9_:/.-]+$/)
    .default('groups'),
  rules: z.array(Rule).min(1).max(500),
});
export type RoleMap = z.infer<typeof RoleMap>;

/** SSO_ROLE_MAP parsed, or a sentence saying what is wrong with it. */
export function parseRoleMap(text: string): RoleMap | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'SSO_ROLE_MAP is not JSON';
  }
  const parsed = RoleMap.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `SSO_ROLE_MAP: ${issue?.path.join('.') || '(top)'}: ${issue?.message ?? 'invalid'}`;
}

/** The values of `claim` (a dotted path) in a token's claims: a string or the strings of an array. */
export function claimValues(claims: Record<string, unknown>, claim: string): string[] {
  let value: unknown = claims;
  for (const part of claim.split('.')) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
    value = (value as Record<string, unknown>)[part];
  }
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Only the groups some rule names: what a session keeps, so its cookie stays small. */
export function relevantGroups(map: RoleMap, groups: readonly string[]): string[] {
  const named = new Set(map.rules.flatMap((r) => (r.group === undefined ? [] : [r.group])));
  return [...new Set(groups.filter((g) => named.has(g)))];
}

const RANK: Record<AdminRole, number> = { owner: 0, admin: 1, viewer: 2, tenant_admin: 3 };

function matches(rule: RoleMap['rules'][number], who: SsoIdentity): boolean {
  if (rule.group !== undefined) return who.groups.includes(rule.group);
  const email = who.emailVerified ? who.email?.toLowerCase() : undefined;
  if (!email) return false;
  if (rule.email !== undefined) return email === rule.email.toLowerCase();
  return email.endsWith(`@${rule.domain?.toLowerCase().replace(/^@/, '')}`);
}

/** The id an SSO identity acts under in the audit log: `sso:` and its email, else its subject. */
export const ssoActorId = (who: SsoIdentity) => `sso:${who.email ?? who.subject}`;

/** The admin an identity is, or null when no rule gives it a role. */
export function principalFor(map: RoleMap, who: SsoIdentity): AdminPrincipal | null {
  const matched = map.rules.filter((r) => matches(r, who));
  if (matched.length === 0) return null;
  const role = matched.reduce<AdminRole>(
    (best, r) => (RANK[r.role] < RANK[best] ? r.role : best),
    'tenant_admin',
  );
  const tenantIds = role === 'tenant_admin' ? [...new Set(matched.flatMap((r) => r.tenants ?? []))] : [];
  const label = who.name ?? who.email ?? who.subject;
  const via = who.source === 'access' ? 'Cloudflare Access' : 'SSO';
  return {
    id: ssoActorId(who),
    name: `${label} (${via})`,
    role,
    tenantIds,
  };
}
