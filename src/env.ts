/** Everything the Worker is given: generated bindings (worker-configuration.d.ts) plus secrets and optional bindings. */
import type { LogBatch } from './core/log-batch';

/** Secrets are set with `wrangler secret put` (production) or `.dev.vars` (dev); all optional. */
export interface Secrets {
  ADMIN_TOKEN?: string;
  OPENAI_API_KEY?: string;
  ANTHROPIC_API_KEY?: string;
  GROQ_API_KEY?: string;
  MISTRAL_API_KEY?: string;
  DEEPSEEK_API_KEY?: string;
  OPENROUTER_API_KEY?: string;
  TOGETHER_API_KEY?: string;
  MOCK_API_KEY?: string;
  /** Google Gemini (src/providers/gemini.ts); GEMINI_BASE_URL overrides the API's origin (tests, proxies). */
  GEMINI_API_KEY?: string;
  GEMINI_BASE_URL?: string;
  /** Azure OpenAI (src/providers/azure.ts): the resource's endpoint, key and API version. */
  AZURE_OPENAI_API_KEY?: string;
  AZURE_OPENAI_BASE_URL?: string;
  AZURE_OPENAI_API_VERSION?: string;
  /** AWS Bedrock (src/providers/bedrock.ts): SigV4 credentials and region; BEDROCK_BASE_URL overrides the endpoint. */
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
  AWS_SESSION_TOKEN?: string;
  AWS_REGION?: string;
  BEDROCK_BASE_URL?: string;
  /** The key-encryption secret for tenants' own provider keys (src/providers/tenant-key.ts). */
  PROVIDER_KEYS_SECRET?: string;
  /** Signs budget alert webhooks; each tenant's secret is derived from it (src/alerts/signature.ts). */
  ALERT_SIGNING_SECRET?: string;
  /** JSON array of extra OpenAI-compatible providers; see src/providers/table.ts. */
  EDGEWAY_PROVIDERS?: string;
  /** OpenTelemetry span and metrics export from the log pipeline (src/logs/otel/config.ts); off without an endpoint. */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_HEADERS?: string;
  OTEL_TRACES_EXPORTER?: string;
  OTEL_METRICS_EXPORTER?: string;
  OTEL_SERVICE_NAME?: string;
  /**
   * Single sign-on for admins (docs/sso.md, src/admin/sso/config.ts): an OpenID Connect provider for the
   * dashboard's sign-in and the admin API's bearer ID tokens, Cloudflare Access's signed assertion, and the
   * map from their identities to roles and tenants. All optional: without them, admin tokens only.
   */
  OIDC_ISSUER?: string;
  OIDC_CLIENT_ID?: string;
  OIDC_CLIENT_SECRET?: string;
  OIDC_PROVIDER_NAME?: string;
  OIDC_SCOPES?: string;
  OIDC_CLIENT_AUTH?: string;
  OIDC_REDIRECT_URI?: string;
  CF_ACCESS_TEAM_DOMAIN?: string;
  CF_ACCESS_AUD?: string;
  SSO_ROLE_MAP?: string;
  /** Per-provider secrets referenced by EDGEWAY_PROVIDERS rows (`api_key_secret`). */
  [name: `PROVIDER_KEY_${string}`]: string | undefined;
}

/** Bindings that exist only in some deployments; their absence selects a fallback. */
export interface OptionalBindings {
  /**
   * Base URL of the mock LLM; the `mock/` provider exists only when it is set
   * (`npm run dev`, tests and the bench set it; a deployment does not).
   */
  MOCK_LLM_URL?: string;
  /** Service binding to the mock LLM (tests); without it the mock is reached at MOCK_LLM_URL. */
  MOCK_LLM?: Fetcher;
  /** Log pipeline queue; without it log events go to the Worker's console. */
  /** Log batches (src/core/log-batch.ts); older single-event messages are still consumed. */
  LOG_QUEUE?: Queue<LogBatch>;
  /**
   * Raw logs in R2 (src/logs/archive/): with it, each log batch is one object per tenant and hour and
   * request_logs in D1 is the index of the last LOG_INDEX_DAYS; without it D1 keeps whole rows.
   */
  LOG_ARCHIVE?: R2Bucket;
  /**
   * Stored responses of POST /v1/responses (src/storage/response-store.ts): one object per response under
   * responses/<tenant_id>/<id>, indexed in D1; without it the record itself is kept in D1 (≤ 1 MiB).
   */
  RESPONSES?: R2Bucket;
  /** Workers AI (production); without it the semantic cache embeds with SEMANTIC_EMBEDDER's local choice. */
  AI?: Ai;
  /** Vectorize index for the semantic cache (production); without it the VectorIndexDO stands in. */
  VECTORIZE?: VectorizeIndex;
}

export type Bindings = Env & Secrets & OptionalBindings;
