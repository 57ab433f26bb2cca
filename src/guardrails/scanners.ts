/**
 * The span finders a policy needs in one direction, combined into one
 * settling finder (src/guardrails/pii/combine.ts, so a stream holds back only
 * what could still be a value): PII kinds when `pii` is on, credentials when
 * `secrets` is on, the deny-list when `denylist` is on. Each finder is built once per isolate (the detectors and
 * compiled deny-lists are memoised where they are built); the combination is
 * memoised per effective policy, which is itself memoised per key record.
 */
import {
  effectivePolicy,
  type Direction,
  type EffectivePolicy,
  type Guardrail,
} from '../core/guardrail-policy';
import type { Principal } from '../core/principal';
import { denyFinderFor } from './denylist/denylist';
import { type FindingKind, PII_KINDS, SECRET_KINDS, type SpanFinder } from './finding';
import { combineFinders } from './pii/combine';
import { sensitiveFinder } from './pii/finder';

const PII = new Set<string>(PII_KINDS);
const SECRETS = new Set<string>(SECRET_KINDS);

/** Which guardrail a finding belongs to. */
export function guardrailOf(kind: FindingKind): Guardrail {
  if (PII.has(kind)) return 'pii';
  if (SECRETS.has(kind)) return 'secrets';
  return 'denylist';
}

const policies = new WeakMap<Principal, EffectivePolicy>();

/** The policy a key's requests run under; computed once per cached key record. */
export function policyOf(principal: Principal): EffectivePolicy {
  let policy = policies.get(principal);
  if (!policy) {
    policy = effectivePolicy(principal.tenantGuardrails, principal.guardrails);
    policies.set(principal, policy);
  }
  return policy;
}

const combined = new WeakMap<EffectivePolicy, Partial<Record<Direction, SpanFinder | null>>>();

/** One finder for every span guardrail the policy turns on in `direction`; null when none is on. */
export function spanFinder(policy: EffectivePolicy, direction: Direction): SpanFinder | null {
  let byDirection = combined.get(policy);
  if (!byDirection) {
    byDirection = {};
    combined.set(policy, byDirection);
  }
  if (!(direction in byDirection)) byDirection[direction] = build(policy, direction);
  return byDirection[direction] ?? null;
}

function build(policy: EffectivePolicy, direction: Direction): SpanFinder | null {
  const actions = policy[direction];
  const kinds = new Set<FindingKind>();
  if (actions.pii !== 'off') for (const k of PII_KINDS) kinds.add(k);
  if (actions.secrets !== 'off') for (const k of SECRET_KINDS) kinds.add(k);
  const finders: SpanFinder[] = [];
  if (kinds.size > 0) finders.push(sensitiveFinder(kinds));
  if (actions.denylist !== 'off') {
    const deny = denyFinderFor(policy.deny);
    if (deny) finders.push(deny);
  }
  if (finders.length === 0) return null;
  return finders.length === 1 ? finders[0]! : combineFinders(finders);
}
