/**
 * Deterministic hashing for the mock: every "random" thing it produces (text,
 * ids, vectors) is derived from a hash of the request, so the same request
 * always gets the same answer. FNV-1a over UTF-16 code units is cheap and needs
 * no encoder; mulberry32 turns a 32-bit seed into a stream of numbers.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a of `text`, optionally continuing from a previous hash. */
export function fnv1a(text: string, seed: number = FNV_OFFSET): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h >>> 0;
}

/** JSON with object keys sorted at every level, so key order never changes a hash. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(item)}`);
  }
  return `{${parts.join(',')}}`;
}

/** mulberry32: a tiny, fast PRNG. Returns uint32 values. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `prefix` followed by `length` base-62 characters derived from `seed` (e.g. "chatcmpl-…"). */
export function idFrom(prefix: string, seed: number, length = 24): string {
  const next = prng(seed);
  let out = prefix;
  for (let i = 0; i < length; i++) out += ALPHABET[next() % ALPHABET.length];
  return out;
}
