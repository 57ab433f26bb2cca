/**
 * A named route, as admins write it and every layer reads it (pure zod): a
 * name clients put in `model`, and a strategy over targets. A target is a
 * `provider/model` or the name of another route; groups nest, so a weighted
 * group can be one step of a fallback. Route names never contain a slash, so
 * they can never be mistaken for a `provider/model` id (or the reverse).
 */
import * as z from 'zod';
import { MAX_OUTPUT_TOKENS } from './request-schemas';
import { OnUnsupported } from './unsupported-policy';

/** Letters, digits, `.`, `_`, `-`; no slash (that is a `provider/model` id). */
export const ROUTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const RouteName = z
  .string()
  .regex(ROUTE_NAME, 'letters, digits, ".", "_" and "-", at most 64, no "/"');

/** The most targets one group holds, and how deep groups (and routes naming routes) may nest. */
export const MAX_GROUP_TARGETS = 16;
export const MAX_ROUTE_DEPTH = 4;
/** Attempts one target gets before the route moves on (each after backoff, only before the first byte). */
export const MAX_TARGET_ATTEMPTS = 5;

/** Request fields a target may set for its own calls (what a cheaper or smaller fallback needs). */
export const TargetOverrides = z.strictObject({
  max_tokens: z.number().int().min(1).max(MAX_OUTPUT_TOKENS).optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
});
export type TargetOverrides = z.infer<typeof TargetOverrides>;

export const RouteTarget = z.strictObject({
  /** `provider/model`, or the name of another route. */
  model: z
    .string()
    .min(1)
    .max(200)
    .describe('A "provider/model" id, or the name of another route (no slash).'),
  weight: z.number().min(0).max(1000).default(1).describe('Share of traffic within a loadbalance group.'),
  ttfb_timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(600_000)
    .optional()
    .describe('Time to first byte for this target; the deployment default otherwise.'),
  attempts: z
    .number()
    .int()
    .min(1)
    .max(MAX_TARGET_ATTEMPTS)
    .optional()
    .describe(
      "Tries of this target before the route moves on; the route's or the deployment's default otherwise.",
    ),
  credential: z
    .enum(['auto', 'tenant', 'deployment'])
    .default('auto')
    .describe(
      "auto: the tenant's own key when it stored one, else the deployment's; tenant: only the tenant's own key (skipped without one); deployment: always the deployment's.",
    ),
  overrides: TargetOverrides.optional(),
});
export type RouteTarget = z.infer<typeof RouteTarget>;

export interface RouteGroup {
  readonly strategy: 'fallback' | 'loadbalance';
  readonly targets: readonly RouteStep[];
  readonly weight: number;
}
export type RouteStep = RouteTarget | RouteGroup;

export const RouteGroup: z.ZodType<RouteGroup, unknown> = z.lazy(() =>
  z.strictObject({
    strategy: z.enum(['fallback', 'loadbalance']),
    targets: z.array(RouteStep).min(1).max(MAX_GROUP_TARGETS),
    weight: z.number().min(0).max(1000).default(1),
  }),
);
export const RouteStep: z.ZodType<RouteStep, unknown> = z.lazy(() => z.union([RouteTarget, RouteGroup]));

export const isGroup = (step: RouteStep): step is RouteGroup => 'strategy' in step;

/** What a route does: its top group, and its retry settings. */
export const RouteSpec = z.strictObject({
  strategy: z.enum(['fallback', 'loadbalance']),
  targets: z.array(RouteStep).min(1).max(MAX_GROUP_TARGETS),
  /** Tries per target when the target does not say; the deployment's UPSTREAM_MAX_ATTEMPTS otherwise. */
  attempts: z.number().int().min(1).max(MAX_TARGET_ATTEMPTS).optional(),
  /** Most upstream calls one request may make across all targets. */
  max_calls: z.number().int().min(1).max(20).default(6),
  /**
   * "refuse": a target whose translation would drop anything is skipped (the next one is tried), and
   * the request is refused with 400 unsupported_field when no target can take it whole. Absent: "drop",
   * unless the key or its tenant refuses.
   */
  on_unsupported: OnUnsupported.optional(),
});
export type RouteSpec = z.infer<typeof RouteSpec>;
