/**
 * The admin-facing records, one zod schema each: what D1 rows become when read
 * back (every JSON column is validated) and what the admin API returns. Field
 * names are snake_case, as on the wire. Times are epoch milliseconds.
 * A key's secret and its hashes are deliberately absent: they never leave D1.
 */
import * as z from 'zod';
import { GuardrailPolicy } from '../core/guardrail-policy';
import { AllowedOrigins } from '../core/origins';
import { ROUTE_NAME } from '../core/route-spec';
import {
  AlertSettings,
  Budgets,
  CacheSettings,
  KeyScopes,
  Limits,
  ResponsesRetentionDays,
  TenantScopes,
} from '../core/settings';
import { OnUnsupported } from '../core/unsupported-policy';

export const Timestamp = z.number().int().nonnegative().describe('Epoch milliseconds.');

/** Flat labels for the admin's own use (billing ids, owners…), never interpreted by the gateway. */
export const Metadata = z
  .record(z.string().min(1).max(64), z.union([z.string().max(512), z.number(), z.boolean(), z.null()]))
  .refine((m) => Object.keys(m).length <= 32, 'metadata holds at most 32 keys')
  .describe(
    'Flat JSON object, at most 32 keys; values are strings (≤ 512 chars), numbers, booleans or null.',
  );
export type Metadata = z.infer<typeof Metadata>;

/**
 * An exact model id (`provider/model`), a whole provider (`provider/*`), or a
 * named route (no slash; allowing a route lets the key call it, whatever its targets).
 */
export const ModelPattern = z
  .string()
  .max(200)
  .regex(
    new RegExp(`^(?:[a-z0-9][a-z0-9._-]*/(?:\\*|[^\\s*]+)|${ROUTE_NAME.source.slice(1, -1)})$`, 'i'),
    'expected "provider/model", "provider/*" or a route name',
  );

export const ModelList = z
  .array(ModelPattern)
  .max(100)
  .nullable()
  .describe('Allowed models: exact ids, "provider/*" patterns or route names; null allows every model.');

export const TenantStatus = z.enum(['active', 'disabled']);
export const KeyStatus = z.enum(['active', 'revoked']);

export const Tenant = z.object({
  id: z.string(),
  name: z.string(),
  status: TenantStatus,
  limits: Limits,
  budgets: Budgets,
  guardrails: GuardrailPolicy.default({}),
  alerts: AlertSettings.default({ thresholds: [] }),
  alert_webhook: z.string().nullable().default(null),
  responses_retention_days: ResponsesRetentionDays.default(null),
  on_unsupported: OnUnsupported.default('drop'),
  /** Scopes below the tenant (its `scopes` column, flattened): end users, model and tag rules, downgrade. */
  ...TenantScopes.shape,
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Tenant = z.infer<typeof Tenant>;

export const ApiKey = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  hint: z.string().describe('Prefix and last four characters of the secret; safe to show.'),
  status: KeyStatus,
  models: ModelList,
  limits: Limits,
  budgets: Budgets,
  cache: CacheSettings,
  guardrails: GuardrailPolicy.default({}),
  origins: AllowedOrigins.default([]),
  alerts: AlertSettings.default({ thresholds: [] }),
  on_unsupported: OnUnsupported.default('drop'),
  /** Scopes below the key (its `scopes` column, flattened): model rules and its downgrade. */
  ...KeyScopes.shape,
  log_payload: z.boolean().describe('Whether prompts and completions are stored in the logs.'),
  metadata: Metadata,
  expires_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  last_used_at: Timestamp.nullable().describe('Filled by the log pipeline, not per request; may lag.'),
  revoked_at: Timestamp.nullable(),
  grace_expires_at: Timestamp.nullable().describe(
    'Until when the secret replaced by the last rotation is still accepted.',
  ),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const ID_PREFIX = { tenant: 'ten_', key: 'key_' } as const;

/** A tenant's scope fields: what its `scopes` column holds (TenantScopes). */
export const TENANT_SCOPE_FIELDS = Object.keys(TenantScopes.shape) as (keyof TenantScopes)[];
/** A key's scope fields: what its `scopes` column holds (KeyScopes). */
export const KEY_SCOPE_FIELDS = Object.keys(KeyScopes.shape) as (keyof KeyScopes)[];

/**
 * A scope field that cannot hold null (e.g. `mcp`, absent unless set) is cleared by a null in a patch:
 * it is removed from the column and reads back as absent (or its default), never as a stored null.
 */
const clearedByRemoval = (schema: z.ZodObject, field: string): boolean =>
  schema.shape[field]?.safeParse(null).success === false;

/**
 * The SQL that replaces each given scope field whole inside a `scopes` column (json_set, so a rule
 * object is replaced, not merged; null is stored as null, or removes a field that cannot hold it), and
 * its binds; null when none is given.
 */
export function scopesUpdate<F extends string>(
  schema: z.ZodObject,
  fields: readonly F[],
  patch: Partial<Record<F, unknown>>,
): { sql: string; binds: string[] } | null {
  const given = fields.filter((f) => patch[f] !== undefined);
  if (given.length === 0) return null;
  const removed = given.filter((f) => patch[f] === null && clearedByRemoval(schema, f));
  const set = given.filter((f) => !removed.includes(f));
  let column = 'scopes';
  if (set.length > 0) column = `json_set(${column}, ${set.map((f) => `'$.${f}', json(?)`).join(', ')})`;
  if (removed.length > 0) column = `json_remove(${column}, ${removed.map((f) => `'$.${f}'`).join(', ')})`;
  return { sql: `scopes = ${column}`, binds: set.map((f) => JSON.stringify(patch[f])) };
}

/** The `scopes` column of a new tenant or key: the fields given (a null that clears a field is left out). */
export function initialScopes<F extends string>(
  schema: z.ZodObject,
  fields: readonly F[],
  input: Partial<Record<F, unknown>>,
): string {
  const kept = fields.filter(
    (f) => input[f] !== undefined && !(input[f] === null && clearedByRemoval(schema, f)),
  );
  return JSON.stringify(Object.fromEntries(kept.map((f) => [f, input[f]])));
}

/** Reads a JSON column; D1's CHECK (json_valid) makes a failure here exceptional. */
export function jsonColumn(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}
