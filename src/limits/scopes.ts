/**
 * The scopes one request is checked against (pure): its key and tenant, the key's and tenant's model
 * rules its model or route matches, the tenant's tag rules its cf-aig-metadata matches, and its end
 * user. Scope ids name their rows in the Limiter objects; `describeScope` reads one back. End users
 * live in the tenant's user shards (src/limits/shards.ts); the other scopes in the tenant's object,
 * which a request reaches only when one of them is limited.
 */
import type { Principal } from '../core/principal';
import type { ModelRule, ScopeRule, TagRule } from '../core/settings';
import type { EndUser } from './end-user';
import type { ScopeKind, ScopeSettings, ScopeSpec } from './protocol';

export const TENANT_SCOPE = 'tenant';
export const keyScopeId = (keyId: string) => `key:${keyId}`;
export const userScopeId = (user: string) => `user:${user}`;
export const modelScopeId = (match: string, keyId: string | null) =>
  keyId === null ? `model:${match}` : `key:${keyId}:model:${match}`;
export const tagScopeId = (tag: string, value: string) => `tag:${tag}=${value}`;

/** What a scope id names: its kind, the key it belongs to (a key or a key's model rule) and its label. */
export function describeScope(id: string): { kind: ScopeKind; keyId: string | null; label: string | null } {
  if (id === TENANT_SCOPE) return { kind: 'tenant', keyId: null, label: null };
  for (const kind of ['user', 'model', 'tag'] as const)
    if (id.startsWith(`${kind}:`)) return { kind, keyId: null, label: id.slice(kind.length + 1) };
  const rest = id.startsWith('key:') ? id.slice(4) : id;
  const at = rest.indexOf(':model:');
  return at < 0
    ? { kind: 'key', keyId: rest, label: null }
    : { kind: 'model', keyId: rest.slice(0, at), label: rest.slice(at + ':model:'.length) };
}

/** The scopes of one request: those of the tenant's object (empty: it need not be asked) and the end user's. */
export interface ScopePlan {
  readonly object: readonly ScopeSpec[];
  readonly user: ScopeSpec | null;
}

export interface ScopeInput {
  /** The model the request names (a route's name or `provider/model`) and every target that may answer it. */
  readonly models: readonly string[];
  readonly endUser: EndUser | null;
  /** The request's values of the tenant's tag keys (tagsOf). */
  readonly tags: Readonly<Record<string, string>> | null;
}

export function planScopes(principal: Principal, input: ScopeInput): ScopePlan {
  const keyAlerts = principal.alerts;
  const tenantAlerts = principal.tenantAlerts;
  const rules: ScopeSpec[] = [];
  const add = (spec: ScopeSpec) => {
    if (!rules.some((r) => r.id === spec.id)) rules.push(spec);
  };
  for (const rule of principal.scopes.model_limits)
    if (input.models.some((m) => modelMatches(rule.match, m)))
      add(modelSpec(rule, principal.id, { ...ruleSettings(rule), alerts: keyAlerts }));
  for (const rule of principal.tenantScopes.model_limits)
    if (input.models.some((m) => modelMatches(rule.match, m)))
      add(modelSpec(rule, null, { ...ruleSettings(rule), alerts: tenantAlerts }));
  // A rule naming its value comes before one for every value of the same tag.
  const tagRules = [...principal.tenantScopes.tag_limits].sort(
    (a, b) => Number(b.value !== undefined) - Number(a.value !== undefined),
  );
  for (const rule of tagRules) {
    const value = input.tags?.[rule.tag];
    if (value === undefined || (rule.value !== undefined && rule.value !== value)) continue;
    add(tagSpec(rule, value, { ...ruleSettings(rule), alerts: tenantAlerts }));
  }
  const object =
    rules.length > 0 || ownLimits(principal)
      ? [
          {
            id: keyScopeId(principal.id),
            kind: 'key' as const,
            label: null,
            param: null,
            settings: {
              limits: principal.limits,
              budgets: principal.budgets,
              alerts: keyAlerts,
              downgrade: principal.scopes.downgrade,
            },
          },
          {
            id: TENANT_SCOPE,
            kind: 'tenant' as const,
            label: null,
            param: null,
            settings: {
              limits: principal.tenantLimits,
              budgets: principal.tenantBudgets,
              alerts: tenantAlerts,
              downgrade: principal.tenantScopes.downgrade,
            },
          },
          ...rules,
        ]
      : [];
  const defaults = principal.tenantScopes.end_users;
  const user =
    defaults && input.endUser
      ? {
          id: userScopeId(input.endUser.id),
          kind: 'user' as const,
          label: input.endUser.id,
          param: input.endUser.param,
          settings: { ...ruleSettings(defaults), alerts: tenantAlerts },
        }
      : null;
  return { object, user };
}

/** True when a model rule's `match` covers `model`: equal, or a `prefix*` pattern it starts with. */
export function modelMatches(match: string, model: string): boolean {
  return match.endsWith('*') ? model.startsWith(match.slice(0, -1)) : match === model;
}

/**
 * The request's values of the tenant's tag keys (its `tag_keys` and its tag rules' keys) in its
 * cf-aig-metadata, as strings; null when it has none.
 */
export function tagsOf(
  principal: Principal,
  metadata: Readonly<Record<string, string | number | boolean>> | null,
): Record<string, string> | null {
  if (!metadata) return null;
  const { tag_keys, tag_limits } = principal.tenantScopes;
  if (tag_keys.length === 0 && tag_limits.length === 0) return null;
  let out: Record<string, string> | null = null;
  for (const key of [...tag_keys, ...tag_limits.map((r) => r.tag)]) {
    const value = metadata[key];
    if (value === undefined) continue;
    out ??= {};
    out[key] = String(value);
  }
  return out;
}

function ruleSettings(rule: ScopeRule): ScopeSettings {
  return { limits: rule.limits, budgets: rule.budgets, downgrade: rule.downgrade ?? null };
}

function modelSpec(rule: ModelRule, keyId: string | null, settings: ScopeSettings): ScopeSpec {
  return { id: modelScopeId(rule.match, keyId), kind: 'model', label: rule.match, param: 'model', settings };
}

function tagSpec(rule: TagRule, value: string, settings: ScopeSettings): ScopeSpec {
  return {
    id: tagScopeId(rule.tag, value),
    kind: 'tag',
    label: `${rule.tag}=${value}`,
    param: `cf-aig-metadata.${rule.tag}`,
    settings,
  };
}

/** True when the key or its tenant has a rate limit, a budget or a downgrade of its own. */
function ownLimits(principal: Principal): boolean {
  return (
    hasRate(principal.limits) ||
    hasRate(principal.tenantLimits) ||
    hasBudget(principal.budgets) ||
    hasBudget(principal.tenantBudgets)
  );
}

const hasRate = (l: { rpm?: number; tpm?: number; concurrent?: number }) =>
  l.rpm !== undefined || l.tpm !== undefined || l.concurrent !== undefined;
const hasBudget = (b: Principal['budgets']) =>
  [b.tokens, b.usd, b.requests].some((w) => w !== undefined && (w.day ?? w.month ?? w.total) !== undefined);

/** True when a request of this principal may have anything to count (before its model is known). */
export function mayBeLimited(principal: Principal): boolean {
  const s = principal.scopes;
  const t = principal.tenantScopes;
  return (
    ownLimits(principal) ||
    s.model_limits.length > 0 ||
    t.model_limits.length > 0 ||
    t.tag_limits.length > 0 ||
    t.end_users !== null
  );
}
