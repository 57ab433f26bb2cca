/**
 * What the OpenTelemetry GenAI semantic conventions call a model request's operation, provider and models
 * (pure), from its log event: shared by the span (span.ts) and the metrics (metrics.ts), so a span and
 * the data points it is counted in carry the same `gen_ai.*` values.
 */
import type { LogEvent } from '../../core/log-event';

/** Gateway provider ids → `gen_ai.provider.name` well-known values; others are sent as they are. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  bedrock: 'aws.bedrock',
  gemini: 'gcp.gemini',
  azure: 'azure.ai.openai',
  groq: 'groq',
  mistral: 'mistral_ai',
  deepseek: 'deepseek',
};

export interface GenAiModel {
  /** `gen_ai.operation.name`. */
  readonly operation: string;
  /** `gen_ai.provider.name` (also sent as the older `gen_ai.system`); null when no provider was resolved. */
  readonly provider: string | null;
  /** `gen_ai.request.model`: the model asked for, without its provider prefix (a route's name for a route). */
  readonly requestModel: string | null;
  /** `gen_ai.response.model`: the target that answered, without its provider; null when none did. */
  readonly responseModel: string | null;
}

export function genAiModel(event: LogEvent): GenAiModel {
  const answered = [...event.tries].reverse().find((t) => t.error === null && t.status < 400);
  return {
    operation: operationName(event.endpoint),
    provider: event.provider ? (PROVIDER_NAMES[event.provider] ?? event.provider) : null,
    requestModel: modelName(event.model, event.provider),
    responseModel: answered ? answered.target.slice(answered.target.indexOf('/') + 1) : null,
  };
}

/** The GenAI operation of an endpoint; an endpoint without one is named by its last path segment. */
export function operationName(endpoint: string): string {
  if (endpoint.includes('embed')) return 'embeddings';
  if (/\/(chat\/completions|messages|responses)$/.test(endpoint) || endpoint.endsWith('/converse')) {
    return 'chat';
  }
  if (/generateContent$/i.test(endpoint)) return 'generate_content';
  if (endpoint.endsWith('/completions')) return 'text_completion';
  return endpoint.split('/').filter(Boolean).pop() ?? 'request';
}

/** `provider/model` → the model as the provider knows it; a route's name stays as it is. */
function modelName(model: string | null, provider: string | null): string | null {
  if (model === null) return null;
  return provider && model.startsWith(`${provider}/`) ? model.slice(provider.length + 1) : model;
}
