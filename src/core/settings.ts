/**
 * Per-key and per-tenant settings, one zod schema each, shared by the admin API
 * (validation, OpenAPI), D1 (JSON columns) and the hot path (KeyRecord).
 */
import * as z from 'zod';
import { KeyMcp, TenantMcp } from './mcp-settings';

const count = z.number().int().positive();

/** Rate windows. Absent fields are unlimited. */
export const Limits = z.strictObject({
  /** Requests per minute. */
  rpm: count.optional(),
  /** Tokens (input + output) per minute. */
  tpm: count.optional(),
  /** Requests in flight at once. */
  concurrent: count.optional(),
  /** Largest max_tokens a request may ask for, and the reservation used when it sets none. */
  max_tokens: count.optional(),
});
export type Limits = z.infer<typeof Limits>;

const Window = z.strictObject({
  day: z.number().positive().optional(),
  month: z.number().positive().optional(),
  total: z.number().positive().optional(),
});

const RequestWindow = z.strictObject({
  day: count.optional(),
  month: count.optional(),
  total: count.optional(),
});

/** Spending caps, in tokens, in USD and in requests, per UTC day, calendar month and in total. */
export const Budgets = z.strictObject({
  tokens: Window.optional(),
  usd: Window.optional(),
  /** Requests admitted (cache hits and failed upstream calls included), per period. */
  requests: RequestWindow.optional(),
});
export type Budgets = z.infer<typeof Budgets>;

/** A route name: what a spend-triggered downgrade sends requests to (src/routing). */
const RouteName = z.string().min(1).max(64);

/**
 * Spend-triggered downgrade: once any budget of the scope it sits on reaches `at_percent` of its limit
 * (spent and held, with the request's worst case), requests go to the named route (a cheaper model)
 * instead of their own model, and still count against every budget; refused only when that does not fit.
 */
export const Downgrade = z.strictObject({
  at_percent: z.number().int().min(1).max(100),
  route: RouteName,
});
export type Downgrade = z.infer<typeof Downgrade>;

/** The rate limits a scope below a key or tenant takes (no max_tokens: that is the key's and tenant's). */
export const ScopeLimits = Limits.omit({ max_tokens: true });
export type ScopeLimits = z.infer<typeof ScopeLimits>;

/** What one scope below a key or tenant (an end user, a model pattern, a tag) is held to. */
const ScopeRuleFields = {
  limits: ScopeLimits.default({}),
  budgets: Budgets.default({}),
  downgrade: Downgrade.optional(),
};
export const ScopeRule = z.strictObject(ScopeRuleFields);
export type ScopeRule = z.infer<typeof ScopeRule>;

/**
 * Limits and budgets for the requests whose model matches `match`: an exact id (`openai/gpt-4o`), a
 * prefix pattern ending in `*` (`openai/*`, `anthropic/claude-opus-*`), or a route's name. A request
 * matches when its model, or any target its route may call, does.
 */
export const ModelRule = z.strictObject({
  match: z
    .string()
    .min(1)
    .max(256)
    .regex(/^[\x21-\x7e]+$/, 'match must be printable ASCII without spaces'),
  ...ScopeRuleFields,
});
export type ModelRule = z.infer<typeof ModelRule>;

/** A cf-aig-metadata key (the header's keys are at most 128 characters). */
export const TagKey = z.string().min(1).max(128);

/**
 * Limits and budgets for the requests whose cf-aig-metadata has `tag` = `value`; without `value`, each
 * value of `tag` gets its own counters under the same rule (every team its own $500 a month).
 */
export const TagRule = z.strictObject({
  tag: TagKey,
  value: z.string().min(1).max(256).optional(),
  ...ScopeRuleFields,
});
export type TagRule = z.infer<typeof TagRule>;

/** The most model or tag rules one key or tenant may have (each matching one is checked per request). */
export const MAX_SCOPE_RULES = 32;

/** Per-key scopes below the key: its model rules and its own downgrade. */
export const KeyScopes = z.strictObject({
  model_limits: z.array(ModelRule).max(MAX_SCOPE_RULES).default([]),
  downgrade: Downgrade.nullable().default(null),
  /** MCP tools the key may call and how often (src/core/mcp-settings.ts); absent: its tenant's alone. */
  mcp: KeyMcp.optional(),
});
export type KeyScopes = z.infer<typeof KeyScopes>;

/**
 * Per-tenant scopes: the default every end user is held to unless an override is set for them (null:
 * end users are not metered), model rules, tag rules, the metadata keys its usage is rolled up by, and
 * the tenant's own downgrade.
 */
export const TenantScopes = z.strictObject({
  end_users: ScopeRule.nullable().default(null),
  model_limits: z.array(ModelRule).max(MAX_SCOPE_RULES).default([]),
  tag_limits: z.array(TagRule).max(MAX_SCOPE_RULES).default([]),
  /** cf-aig-metadata keys whose values usage is reported by (tag rules' keys are added). */
  tag_keys: z.array(TagKey).max(8).default([]),
  downgrade: Downgrade.nullable().default(null),
  /** MCP tools the tenant's keys may call and how often (src/core/mcp-settings.ts); absent: every tool, unmetered. */
  mcp: TenantMcp.optional(),
});
export type TenantScopes = z.infer<typeof TenantScopes>;

/** Response-cache behaviour for a key. */
export const CacheSettings = z.strictObject({
  /** Exact cache for this key's requests (a request can also opt in with cf-aig-cache-ttl). */
  exact: z.boolean().optional(),
  /** Default TTL of exact-cache entries, seconds (KV minimum is 60). */
  ttl_seconds: z.number().int().min(60).max(31_536_000).optional(),
  /** Semantic cache; off unless enabled. */
  semantic: z.boolean().optional(),
  /** Cosine similarity needed for a semantic hit. */
  threshold: z.number().min(0).max(1).optional(),
  /** Allow semantic hits for requests with tools or temperature > 0. */
  semantic_tools: z.boolean().optional(),
  semantic_temperature: z.boolean().optional(),
  /** Longest conversation (in messages) eligible for a semantic hit. */
  semantic_max_turns: count.optional(),
});
export type CacheSettings = z.infer<typeof CacheSettings>;

/**
 * Budget alerts: percentages of each configured budget (tokens and USD; day, month, total) at which
 * an alert fires, once per threshold and period (src/limits/alerts.ts, docs/alerts.md).
 */
export const AlertSettings = z.strictObject({
  thresholds: z
    .array(z.number().int().min(1).max(100))
    .max(10)
    .refine((t) => new Set(t).size === t.length, 'thresholds must be distinct')
    .default([]),
});
export type AlertSettings = z.infer<typeof AlertSettings>;

/**
 * Days a tenant's stored responses of POST /v1/responses are kept (docs/responses.md, "Stored responses");
 * 0 keeps none (`store: true` is answered, nothing is stored); null: the deployment's RESPONSES_RETENTION_DAYS.
 */
export const ResponsesRetentionDays = z
  .number()
  .int()
  .min(0)
  .max(3650)
  .nullable()
  .describe(
    "Days this tenant's stored responses (POST /v1/responses) are kept, 0–3650; 0 stores none; null: the deployment's RESPONSES_RETENTION_DAYS (default 30).",
  );

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A tenant's alert webhook: https, or http only to the local machine (development, tests). */
export const AlertWebhook = z
  .string()
  .max(2048)
  .url()
  .refine((value) => {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
  }, 'alert_webhook must be an https URL (http only for localhost or 127.0.0.1)');
