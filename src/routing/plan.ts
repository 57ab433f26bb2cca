/**
 * The order in which one request tries a route's targets (pure; randomness
 * and health injected). A fallback group keeps its order; a loadbalance
 * group is drawn in weighted random order without replacement, each weight
 * scaled by the target's health factor (src/routing/health.ts), so the usual
 * pick is the weighted one and the others follow as its fallbacks. Zero
 * weights come last (standbys). Nested groups and named routes expand in
 * place; a target listed twice is tried once, where it first appears.
 */
import {
  isGroup,
  MAX_ROUTE_DEPTH,
  type RouteSpec,
  type RouteStep,
  type RouteTarget,
  type TargetOverrides,
} from '../core/route-spec';
import { type OnUnsupported, stricterOnUnsupported } from '../core/unsupported-policy';

/** One `provider/model` the request may call, with the settings its route gave it. */
export interface PlannedTarget {
  readonly model: string;
  /** Tries of this target; null: the route's or the deployment's default. */
  readonly attempts: number | null;
  readonly ttfbTimeoutMs: number | null;
  readonly credential: RouteTarget['credential'];
  readonly overrides: TargetOverrides | null;
  /** The strictest `on_unsupported` of the named routes this target was reached through. */
  readonly onUnsupported: OnUnsupported;
}

export interface PlanOptions {
  /** Uniform in [0, 1). */
  readonly random: () => number;
  /** Health factors in (0, 1] of a loadbalance group's `provider/model` targets, in order (1: nothing known). */
  readonly factors: (models: readonly string[]) => readonly number[];
  /** A named route's spec (resolved before planning), or null when there is none. */
  readonly route: (name: string) => RouteSpec | null;
}

export function planTargets(spec: RouteSpec, options: PlanOptions): PlannedTarget[] {
  const out: PlannedTarget[] = [];
  const seen = new Set<string>();
  const visit = (step: RouteStep, depth: number, inherited: Inherited) => {
    if (depth > MAX_ROUTE_DEPTH) return;
    if (isGroup(step)) {
      for (const child of order(step.strategy, step.targets, options)) visit(child, depth + 1, inherited);
      return;
    }
    if (!step.model.includes('/')) {
      const nested = options.route(step.model);
      if (!nested) return;
      const through = inheritedFrom(nested, inherited);
      for (const child of order(nested.strategy, nested.targets, options)) visit(child, depth + 1, through);
      return;
    }
    if (seen.has(step.model)) return;
    seen.add(step.model);
    out.push({
      model: step.model,
      attempts: step.attempts ?? inherited.attempts,
      ttfbTimeoutMs: step.ttfb_timeout_ms ?? null,
      credential: step.credential,
      overrides: step.overrides ?? null,
      onUnsupported: inherited.onUnsupported,
    });
  };
  const top = inheritedFrom(spec, { attempts: null, onUnsupported: 'drop' });
  for (const step of order(spec.strategy, spec.targets, options)) visit(step, 1, top);
  return out;
}

/** What a named route passes down to its targets: its tries (else the enclosing route's) and the stricter policy. */
interface Inherited {
  readonly attempts: number | null;
  readonly onUnsupported: OnUnsupported;
}

function inheritedFrom(spec: RouteSpec, outer: Inherited): Inherited {
  return {
    attempts: spec.attempts ?? outer.attempts,
    onUnsupported: stricterOnUnsupported(outer.onUnsupported, spec.on_unsupported ?? 'drop'),
  };
}

/** A group's children in the order they are tried. */
export function order(
  strategy: 'fallback' | 'loadbalance',
  steps: readonly RouteStep[],
  options: Pick<PlanOptions, 'random' | 'factors'>,
): RouteStep[] {
  if (strategy === 'fallback') return [...steps];
  const direct = steps.filter(isDirect).map((t) => t.model);
  const scores = options.factors(direct);
  const health = new Map(direct.map((model, i) => [model, scores[i] ?? 1]));
  const pool = steps.map((step) => ({ step, weight: effectiveWeight(step, health) }));
  const drawn: RouteStep[] = [];
  for (;;) {
    const total = pool.reduce((sum, p) => sum + p.weight, 0);
    if (pool.length === 0 || total <= 0) break;
    let at = options.random() * total;
    let index = pool.findIndex((p) => {
      at -= p.weight;
      return at < 0;
    });
    // Float rounding can leave `at` a hair above 0 after the last positive weight: that one is drawn.
    if (index < 0) index = lastPositive(pool);
    drawn.push((pool[index] as { step: RouteStep }).step);
    pool.splice(index, 1);
  }
  // Standbys (weight 0, or a health factor of 0) keep their listed order after the weighted draw.
  return [...drawn, ...pool.map((p) => p.step)];
}

function lastPositive(pool: readonly { weight: number }[]): number {
  for (let i = pool.length - 1; i >= 0; i--) if ((pool[i] as { weight: number }).weight > 0) return i;
  return 0;
}

const isDirect = (step: RouteStep): step is RouteTarget => !isGroup(step) && step.model.includes('/');

/** A target's configured weight scaled by its health; a group's or a named route's weight as configured. */
function effectiveWeight(step: RouteStep, health: ReadonlyMap<string, number>): number {
  if (!isDirect(step)) return step.weight;
  return step.weight * Math.max(0, Math.min(1, health.get(step.model) ?? 1));
}
