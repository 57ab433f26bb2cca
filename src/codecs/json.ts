/** Small readers for untrusted JSON and the two errors every codec raises (pure). */
import { badRequest, GatewayError } from '../core/errors';

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
export const arr = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** A stream event's data as a JSON object, or null when it is not one (the decoder's 'malformed'). */
export function eventObject(data: string): Json | null {
  try {
    return obj(JSON.parse(data));
  } catch {
    return null;
  }
}

/** A body's `usage` object (any object, as providers send it), or null when it carries none. */
export function usageObject(body: unknown): Json | null {
  if (typeof body !== 'object' || body === null) return null;
  const usage = (body as { usage?: unknown }).usage;
  return typeof usage === 'object' && usage !== null ? (usage as Json) : null;
}

/** A token count as a provider reports it; anything else counts as 0. */
export const count = (v: unknown): number => num(v) ?? 0;

/**
 * A client field that cannot be carried across: a 400 that names it. `target`
 * is the format it could not be written in, or null when the field has no
 * canonical equivalent at all (then it reaches only a provider of the client's own format).
 */
export function unsupported(param: string, target: string | null, why = 'has no equivalent'): GatewayError {
  const where = target ? `in the ${target} format` : 'outside its own wire format';
  return badRequest(
    `'${param}' ${why} ${where}, which this model is reached through; remove it or choose another model.`,
    param,
    'unsupported_parameter',
  );
}

/** A provider answer that is not the shape its format promises: the provider's fault. */
export function badUpstream(what: string): GatewayError {
  return new GatewayError(502, `The provider returned ${what}.`, {
    code: 'bad_upstream_response',
    source: 'provider',
  });
}

/** The JSON text of a value, or the value when it already is text (tool-call arguments). */
export function jsonText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v ?? {});
}

/** Tool-call arguments parsed for formats that carry an object; refused when they are not a JSON object. */
export function parseArguments(text: string, param: string): Json {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(`'${param}' must be a JSON object to be sent to this model.`, param, 'invalid_value');
  }
  const o = obj(value);
  if (!o)
    throw badRequest(`'${param}' must be a JSON object to be sent to this model.`, param, 'invalid_value');
  return o;
}
