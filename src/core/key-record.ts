/**
 * A gateway key as the hot path sees it. The same record is cached in isolate
 * memory and in KV (JSON, validated on every read back) and built from D1.
 */
import * as z from 'zod';
import { GuardrailPolicy } from './guardrail-policy';
import {
  AlertSettings,
  Budgets,
  CacheSettings,
  KeyScopes,
  Limits,
  ResponsesRetentionDays,
  TenantScopes,
} from './settings';
import { OnUnsupported } from './unsupported-policy';

/** A tenant's own key for one provider, as sealed at rest (src/util/provider-key-crypto.ts); never plaintext. */
export const SealedProviderKey = z.object({ ciphertext: z.string(), iv: z.string() });

export const KeyRecord = z.object({
  id: z.string(),
  tenantId: z.string(),
  status: z.enum(['active', 'revoked']),
  /** Allowed model ids, exact or `provider/*`; null allows every model. */
  models: z.array(z.string()).nullable(),
  /** Epoch ms after which the key is refused; null never expires. */
  expiresAt: z.number().nullable(),
  /** The owning tenant's status: a disabled tenant's keys are refused. */
  tenantStatus: z.enum(['active', 'disabled']).default('active'),
  limits: Limits.default({}),
  budgets: Budgets.default({}),
  tenantLimits: Limits.default({}),
  tenantBudgets: Budgets.default({}),
  /** Scopes below the key and tenant (src/limits/scopes.ts): end users, model patterns, tags, downgrades. */
  scopes: KeyScopes.default({ model_limits: [], downgrade: null }),
  tenantScopes: TenantScopes.default({
    end_users: null,
    model_limits: [],
    tag_limits: [],
    tag_keys: [],
    downgrade: null,
  }),
  cache: CacheSettings.default({}),
  /** Guardrail policies (src/core/guardrail-policy.ts): the key's narrows its tenant's. */
  guardrails: GuardrailPolicy.default({}),
  tenantGuardrails: GuardrailPolicy.default({}),
  /** Browser origins allowed to call with this key (src/core/origins.ts); empty allows none. */
  origins: z.array(z.string()).default([]),
  /** Budget alert thresholds (src/limits/alerts.ts), evaluated by the tenant's Limiter object. */
  alerts: AlertSettings.default({ thresholds: [] }),
  tenantAlerts: AlertSettings.default({ thresholds: [] }),
  /** The tenant's retention of stored responses, in days (0: none kept); null: the deployment's. */
  tenantResponsesRetentionDays: ResponsesRetentionDays.default(null),
  /**
   * What a translation that would leave fields out does (src/core/unsupported-policy.ts): drop and name
   * them, or refuse the request; refuse wins if the key or its tenant says it.
   */
  onUnsupported: OnUnsupported.default('drop'),
  tenantOnUnsupported: OnUnsupported.default('drop'),
  /** Store prompts and completions in the logs for this key. */
  logPayload: z.boolean().default(false),
  /**
   * The tenant's own provider keys (BYOK) by provider id, still encrypted: they
   * ride in the record's caches so the hot path reads no D1 to find them.
   */
  providerKeys: z.record(z.string(), SealedProviderKey).default({}),
});
export type KeyRecord = z.infer<typeof KeyRecord>;

/** The prefix every gateway key carries, so leaked keys are recognisable by scanners. */
export const KEY_PREFIX = 'ew_';
