/**
 * Per-key and per-tenant settings, one zod schema each, shared by the admin API
 * (validation, OpenAPI), D1 (JSON columns) and the hot path (KeyRecord).
 */
import * as z from 'zod';

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

/** Spending caps, in tokens and in USD, per UTC day, calendar month and in total. */
export const Budgets = z.strictObject({
  tokens: Window.optional(),
  usd: Window.optional(),
});
export type Budgets = z.infer<typeof Budgets>;

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
