/**
 * An upper bound on the UTF-8 size of a plain JSON value, without serialising
 * it (pure). The batcher and the message fit ask "does this still fit?" once
 * per logged event; an exact answer (src/logs/produce/normalise.ts `jsonBytes`) costs a
 * JSON.stringify per event, whereas the usual event is small and far from any
 * cap. So callers check the bound first and serialise only when it is too
 * close to call. The bound is exact for strings of printable ASCII without
 * `"` or `\` (ids, model names, codes); any other string counts 6 bytes per
 * UTF-16 unit (the widest form JSON gives one: `\u001f`; a surrogate pair is
 * 4 UTF-8 bytes for two units, a lone surrogate `\udXXX`); a number counts 24
 * (the longest a double prints, `-2.2250738585072014e-308`, is 24).
 */

/** Printable ASCII minus `"` and `\`: such a string's JSON is its text in quotes, one byte a unit. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const NUMBER_MAX = 24;
/**
 * Key sizes seen before: an event's field names repeat on every event, and
 * testing each one was half the bound's cost. Cleared when full, so hostile
 * metadata keys cannot grow it past a few hundred short strings' worth.
 */
const keys = new Map<string, number>();
const KEYS_MAX = 512;

/** Linear in the value's size; allocates nothing (plain data only: what JSON.stringify would walk). */
export function jsonBytesBound(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringBound(value);
    case 'number':
      return NUMBER_MAX;
    case 'boolean':
      return 5;
    case 'object':
      return value === null ? 4 : Array.isArray(value) ? arrayBound(value) : objectBound(value);
    default:
      // undefined and functions are left out of objects and written as null in arrays.
      return 4;
  }
}

function stringBound(text: string): number {
  return (PLAIN.test(text) ? text.length : 6 * text.length) + 2;
}

function keyBound(key: string): number {
  let n = keys.get(key);
  if (n === undefined) {
    n = stringBound(key);
    if (keys.size >= KEYS_MAX) keys.clear();
    keys.set(key, n);
  }
  return n;
}

function arrayBound(items: readonly unknown[]): number {
  let n = 2 + items.length;
  for (let i = 0; i < items.length; i++) n += jsonBytesBound(items[i]);
  return n;
}

function objectBound(record: object): number {
  let n = 2;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    // key, colon, comma; the value's own bound.
    n += keyBound(key) + 2 + jsonBytesBound((record as Record<string, unknown>)[key]);
  }
  return n;
}
