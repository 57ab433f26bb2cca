/**
 * The result type of every request validator, and the tiny JSON type checks
 * they share. Validators are pure: a parsed body in, a typed request or a
 * problem (message, param, code) out; each route renders problems in its shape.
 */

export interface RequestProblem {
  readonly message: string;
  readonly param: string | null;
  readonly code: string | null;
}

export type Problem = { readonly ok: false } & RequestProblem;
export type Parsed<T> = { readonly ok: true; readonly value: T } | Problem;

export function fail(message: string, param: string | null = null, code: string | null = null): Problem {
  return { ok: false, message, param, code };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "a string", "an array", "null"…, as OpenAI's messages phrase a JSON type. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
