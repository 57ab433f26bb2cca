/**
 * Client headers a provider needs, let through on an allow-list (pure): only
 * to a provider of the format they belong to, so an Anthropic beta flag never
 * reaches OpenAI. Everything else the client sent stays at the gateway (its
 * Authorization is the gateway key, never a provider's).
 */
import type { WireFormat } from '../core/endpoints';

/** Each header, and the formats of the providers it belongs to (OpenAI's account headers serve both its APIs). */
const OPENAI: readonly WireFormat[] = ['openai', 'responses'];
const ALLOWED: Readonly<Record<string, readonly WireFormat[]>> = {
  'anthropic-beta': ['anthropic'],
  'anthropic-version': ['anthropic'],
  'openai-organization': OPENAI,
  'openai-project': OPENAI,
};

/** Longest value passed on; providers' own values are short tokens. */
const MAX_VALUE_CHARS = 512;

/** The allow-listed headers of a request, as [name, value] pairs (usually none). */
export function passHeaders(headers: Headers): readonly (readonly [string, string])[] {
  let out: [string, string][] | null = null;
  for (const name in ALLOWED) {
    const value = headers.get(name);
    if (value === null || value.length > MAX_VALUE_CHARS) continue;
    out ??= [];
    out.push([name, value]);
  }
  return out ?? NONE;
}

/** The pairs meant for a provider of `format`. */
export function headersFor(
  format: WireFormat,
  pairs: readonly (readonly [string, string])[],
): readonly (readonly [string, string])[] {
  return pairs.length === 0 ? NONE : pairs.filter(([name]) => ALLOWED[name]?.includes(format));
}

/**
 * The names of the pairs a provider of `format` is not sent and that asked for a behaviour (a beta
 * flag meant for another format); the API version every Anthropic client sends asks for none.
 */
export function headersNotFor(format: WireFormat, pairs: readonly (readonly [string, string])[]): string[] {
  if (pairs.length === 0) return [];
  return pairs
    .filter(([name]) => !ALLOWED[name]?.includes(format) && name !== 'anthropic-version')
    .map(([name]) => name);
}

const NONE: readonly (readonly [string, string])[] = [];
