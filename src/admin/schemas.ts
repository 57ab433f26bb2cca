/**
 * Every admin request and response shape, one zod schema each. The routers
 * validate with them and /admin/openapi.json is generated from them, so the
 * document cannot drift from what the API accepts. Bodies and queries are
 * strict: an unknown field is a 400, so a typo never passes silently.
 */
import * as z from 'zod';
import { ApiKey, KeyStatus, Metadata, ModelList, Tenant, TenantStatus, Timestamp } from '../storage/entities';
import { decodeCursor } from '../storage/page';
import { GuardrailPolicy } from '../core/guardrail-policy';
import { KeyMcp, TenantMcp } from '../core/mcp-settings';
import { AllowedOrigins } from '../core/origins';
import {
  AlertSettings,
  AlertWebhook,
  Budgets,
  CacheSettings,
  Downgrade,
  Limits,
  MAX_SCOPE_RULES,
  ModelRule,
  ResponsesRetentionDays,
  ScopeRule,
  TagKey,
  TagRule,
} from '../core/settings';
import { OnUnsupported } from '../core/unsupported-policy';
import { validateDenyList } from '../guardrails/denylist/denylist';
import { ProviderKeyInfo } from '../storage/provider-keys';

/** Longest grace a rotated-out secret may keep: one week. */
export const MAX_GRACE_SECONDS = 7 * 86_400;

export const Name = z.string().trim().min(1).max(200);
export const Id = z.string().min(1).max(64);
const nonEmpty = (o: object) => Object.keys(o).length > 0;

/** A guardrail policy as written: its deny-list patterns must compile to the linear-time engine. */
const Guardrails = GuardrailPolicy.superRefine((policy, ctx) => {
  if (!policy.deny) return;
  for (const message of validateDenyList(policy.deny))
    ctx.addIssue({ code: 'custom', path: ['deny'], message });
}).describe("Guardrail policy (docs/guardrails.md); on a key it narrows its tenant's, never loosens it.");

/**
 * The scope fields a tenant or key body may set (src/core/settings.ts TenantScopes / KeyScopes, without
 * their defaults: an absent field is left as stored). Each replaces the stored value whole.
 */
const ModelLimits = z
  .array(ModelRule)
  .max(MAX_SCOPE_RULES)
  .optional()
  .describe(
    "Limits and budgets per model pattern (`openai/*`, an exact id or a route's name); a request is held to every rule it matches.",
  );
const DowngradeField = Downgrade.nullable()
  .optional()
  .describe(
    'At at_percent of any budget of this scope, requests go to the named route instead; null removes it.',
  );

const TenantScopeFields = {
  end_users: ScopeRule.nullable()
    .optional()
    .describe(
      "The default rule for each of the tenant's end users (x-edgeway-user, `user` …) unless an override is set; null: end users are not metered.",
    ),
  model_limits: ModelLimits,
  tag_limits: z
    .array(TagRule)
    .max(MAX_SCOPE_RULES)
    .optional()
    .describe('Limits and budgets per cf-aig-metadata tag (and value; without one, per value).'),
  tag_keys: z
    .array(TagKey)
    .max(8)
    .optional()
    .describe("cf-aig-metadata keys usage is rolled up by (tag rules' keys are added)."),
  downgrade: DowngradeField,
  mcp: TenantMcp.nullable()
    .optional()
    .describe(
      "MCP (docs/mcp.md): `tools`, the tool patterns (`*`, `github__*`, `search__query`) the tenant's keys may call (null: every tool, []: none); `calls`, the tenant's tool calls per_minute / per_day; `end_user_calls`, each end user's. Replaced whole; null removes it.",
    ),
};

const KeyScopeFields = {
  model_limits: ModelLimits,
  downgrade: DowngradeField,
  mcp: KeyMcp.nullable()
    .optional()
    .describe(
      "MCP (docs/mcp.md): `tools`, the tool patterns this key may call, within its tenant's (null: the tenant's list, []: none); `calls`, the key's tool calls per_minute / per_day. Replaced whole; null removes it.",
    ),
};

/** An end user's override (PUT /admin/tenants/{id}/end-users/{user}): replaces the tenant's end_users default for them. */
export const EndUserRule = ScopeRule;

export const TenantCreate = z.strictObject({
  name: Name,
  limits: Limits.optional(),
  budgets: Budgets.optional(),
  guardrails: Guardrails.optional(),
  alerts: AlertSettings.optional(),
  alert_webhook: AlertWebhook.nullable().optional(),
  responses_retention_days: ResponsesRetentionDays.optional(),
  on_unsupported: OnUnsupported.optional(),
  ...TenantScopeFields,
  metadata: Metadata.optional(),
});

export const TenantUpdate = z
  .strictObject({
    name: Name.optional(),
    status: TenantStatus.optional(),
    limits: Limits.optional(),
    budgets: Budgets.optional(),
    guardrails: Guardrails.optional(),
    alerts: AlertSettings.optional(),
    alert_webhook: AlertWebhook.nullable()
      .optional()
      .describe('Where budget alerts are POSTed; null removes it.'),
    responses_retention_days: ResponsesRetentionDays.optional(),
    on_unsupported: OnUnsupported.optional(),
    ...TenantScopeFields,
    metadata: Metadata.optional(),
  })
  .refine(nonEmpty, 'send at least one field to change');

const KeySettings = {
  name: z.string().trim().max(200).optional(),
  models: ModelList.optional(),
  limits: Limits.optional(),
  budgets: Budgets.optional(),
  cache: CacheSettings.optional(),
  guardrails: Guardrails.optional(),
  origins: AllowedOrigins.optional(),
  alerts: AlertSettings.optional(),
  on_unsupported: OnUnsupported.optional(),
  ...KeyScopeFields,
  log_payload: z.boolean().optional(),
  metadata: Metadata.optional(),
  expires_at: Timestamp.nullable()
    .optional()
    .describe('Epoch milliseconds, in the future; null never expires.'),
};

export const KeyCreate = z.strictObject({ tenant_id: Id, ...KeySettings });

export const KeyUpdate = z.strictObject(KeySettings).refine(nonEmpty, 'send at least one field to change');

export const KeyRotate = z.strictObject({
  grace_seconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_GRACE_SECONDS)
    .optional()
    .describe('How long the replaced secret keeps working; 0 or absent ends it at once.'),
});

export const Cursor = z
  .string()
  .max(256)
  .transform((raw, ctx) => {
    const cursor = decodeCursor(raw);
    if (!cursor) ctx.addIssue({ code: 'custom', message: 'not a next_cursor from a previous page' });
    return cursor;
  })
  .describe('next_cursor from the previous page.');

export const PageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size, 1–100.'),
  cursor: Cursor.optional(),
};

export const TenantListQuery = z.strictObject({ ...PageQuery, status: TenantStatus.optional() });

export const KeyListQuery = z.strictObject({ tenant_id: Id, ...PageQuery, status: KeyStatus.optional() });

/** Optional on every single-key route: scopes it to one tenant, so another tenant's key is a 404. */
export const KeyScopeQuery = z.strictObject({ tenant_id: Id.optional() });

export const KeyWithSecret = ApiKey.extend({
  key: z.string().describe('The secret. Returned only by create and rotate; store it now.'),
});

/** A tenant's own provider key (BYOK): written here, never read back. */
export const ProviderKeyPut = z.strictObject({
  key: z
    .string()
    .trim()
    .min(8)
    .max(4096)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII with no whitespace')
    .describe("The provider's API key, 8–4096 printable characters; stored encrypted, never returned."),
});

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  });
}

export const TenantList = listOf(Tenant);

/** Something the API did but an admin may not have meant: the change is made, and this says why to look again. */
export const Warning = z.object({
  code: z.enum(['duplicate_name']),
  message: z.string(),
  tenant_ids: z
    .array(z.string())
    .describe('The other tenants concerned (for duplicate_name: those with the name).'),
});
export type Warning = z.infer<typeof Warning>;

/** A created or updated tenant, with warnings (empty when none): POST and PATCH /admin/tenants. */
export const TenantWritten = Tenant.extend({ warnings: z.array(Warning) });
export type TenantWritten = z.infer<typeof TenantWritten>;
export const KeyList = listOf(ApiKey);
export const ProviderKeyList = listOf(ProviderKeyInfo);

export const ErrorEnvelope = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});

export { ApiKey, ProviderKeyInfo, Tenant };
export type KeyWithSecret = z.infer<typeof KeyWithSecret>;
