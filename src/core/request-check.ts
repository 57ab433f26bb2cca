/**
 * A fast acceptance check for request bodies (pure): true only when the body
 * certainly satisfies its endpoint's schema (src/core/request-schemas.ts), so
 * the common, valid request is read as it was parsed — no validating copy of
 * the body and its messages. False does not mean invalid: the schema then
 * decides, and names what is wrong. The check may be stricter than the schema,
 * never looser (a property test holds the two together).
 */
import type { Endpoint } from './endpoints';
import {
  MAX_CHOICES,
  MAX_EMBEDDING_DIMENSIONS,
  MAX_MODEL_ID_LENGTH,
  MAX_OUTPUT_TOKENS,
  MODEL_ID_PATTERN,
} from './request-schemas';

type Body = Record<string, unknown>;

const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const nullish = (v: unknown) => v === undefined || v === null;
const text = (v: unknown) => typeof v === 'string' && v.length > 0;
const intIn = (v: unknown, min: number, max: number) =>
  Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
const numIn = (v: unknown, min: number, max: number) =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const optional = (v: unknown, ok: (v: unknown) => boolean) => nullish(v) || ok(v);
const tokens = (v: unknown) => intIn(v, 1, MAX_OUTPUT_TOKENS);
const modelId = (v: unknown) =>
  typeof v === 'string' && v.length <= MAX_MODEL_ID_LENGTH && MODEL_ID_PATTERN.test(v);
const objects = (v: unknown) => Array.isArray(v) && v.every(isObject);

function messages(v: unknown): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  for (const m of v) if (!isObject(m) || !text(m.role)) return false;
  return true;
}

function chat(b: Body): boolean {
  return (
    modelId(b.model) &&
    messages(b.messages) &&
    optional(b.stream, (v) => typeof v === 'boolean') &&
    optional(
      b.stream_options,
      (v) => isObject(v) && optional(v.include_usage, (u) => typeof u === 'boolean'),
    ) &&
    optional(b.max_tokens, tokens) &&
    optional(b.max_completion_tokens, tokens) &&
    optional(b.n, (v) => intIn(v, 1, MAX_CHOICES)) &&
    optional(b.temperature, (v) => numIn(v, 0, 2)) &&
    optional(b.tools, objects)
  );
}

function messagesApi(b: Body): boolean {
  return (
    modelId(b.model) &&
    messages(b.messages) &&
    tokens(b.max_tokens) &&
    optional(b.stream, (v) => typeof v === 'boolean') &&
    optional(b.system, (v) => typeof v === 'string' || objects(v)) &&
    optional(b.temperature, (v) => numIn(v, 0, 1)) &&
    optional(b.tools, objects)
  );
}

function responses(b: Body): boolean {
  return (
    modelId(b.model) &&
    (typeof b.input === 'string' || (Array.isArray(b.input) && b.input.length > 0 && objects(b.input))) &&
    optional(b.instructions, (v) => typeof v === 'string') &&
    optional(b.stream, (v) => typeof v === 'boolean') &&
    optional(b.max_output_tokens, tokens) &&
    optional(b.temperature, (v) => numIn(v, 0, 2)) &&
    optional(b.tools, objects) &&
    optional(b.store, (v) => typeof v === 'boolean') &&
    b.previous_response_id === undefined
  );
}

function embeddingInput(v: unknown): boolean {
  if (typeof v === 'string') return true;
  if (!Array.isArray(v) || v.length === 0) return false;
  if (v.every((x) => typeof x === 'string')) return true;
  if (v.every((x) => Number.isSafeInteger(x))) return true;
  return v.every((row) => Array.isArray(row) && row.length > 0 && row.every((x) => Number.isSafeInteger(x)));
}

function embeddings(b: Body): boolean {
  return (
    modelId(b.model) &&
    embeddingInput(b.input) &&
    optional(b.dimensions, (v) => intIn(v, 1, MAX_EMBEDDING_DIMENSIONS)) &&
    optional(b.encoding_format, (v) => v === 'float' || v === 'base64')
  );
}

const CHECKS: Record<Endpoint, (b: Body) => boolean> = {
  chat,
  messages: messagesApi,
  embeddings,
  responses,
};

/** True when `raw` certainly passes the endpoint's schema as it is. */
export function certainlyValid(endpoint: Endpoint, raw: Body): boolean {
  return CHECKS[endpoint](raw);
}
