/**
 * The mock's prompt cache: a per-isolate Map of prompt-prefix hashes with
 * their expiry, standing in for the providers' caches so usage reports cached
 * tokens the way each provider does. A prompt is a list of units (a tool, a
 * system block, a message or content block) with the prompt-token count up to
 * and including it (README "Tokens and usage"), so input + cached = the total.
 *
 * - Explicit breakpoints (Anthropic `cache_control`, Bedrock `cachePoint`):
 *   the longest cached prefix at any unit up to the last breakpoint is read;
 *   the rest up to the last breakpoint is written, each breakpoint's stretch
 *   with its own TTL, when that prefix reaches the minimum.
 * - Implicit caching (OpenAI, Gemini): a prompt of at least the minimum is
 *   remembered at every unit; the longest remembered prefix is read, rounded
 *   down to the increment (OpenAI's 128 tokens).
 *
 * Only requests that use caching (breakpoints, or a prompt over the minimum)
 * hash anything. The Map is bounded; the clock is passed in.
 */
import { fnv1a } from './hash';

export type CacheTtl = '5m' | '1h';

export interface CacheUnit {
  /** The unit as sent, minus cache markers (hashed into the prefix). */
  readonly value: unknown;
  /** Prompt tokens from the start of the prompt through this unit. */
  readonly tokens: number;
  /** A breakpoint after this unit, with its TTL. */
  readonly breakpoint?: CacheTtl;
}

export interface ExplicitUsage {
  readonly read: number;
  readonly write5m: number;
  readonly write1h: number;
}

const TTL_MS: Readonly<Record<CacheTtl, number>> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };
/** OpenAI keeps an implicit prefix 5–10 minutes in memory; Gemini's implicit cache is similar. */
const IMPLICIT_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

/** Prefix hash → { tokens, expiry ms }. */
const entries = new Map<number, { readonly tokens: number; readonly until: number }>();

function remember(hash: number, tokens: number, until: number): void {
  if (!entries.has(hash) && entries.size >= MAX_ENTRIES) {
    const oldest = entries.keys().next();
    if (!oldest.done) entries.delete(oldest.value);
  }
  const known = entries.get(hash);
  if (!known || known.until < until) entries.set(hash, { tokens, until });
}

/**
 * The running hash after each unit, seeded by the cache's scope (model, cache
 * key). Plain JSON, not canonical: a client resends its prefix byte for byte,
 * and the providers' caches match bytes too.
 */
function prefixHashes(scope: string, units: readonly CacheUnit[]): number[] {
  let hash = fnv1a(scope);
  return units.map((unit) => {
    hash = fnv1a(JSON.stringify(unit.value) ?? 'null', hash);
    return hash;
  });
}

/** Tokens of the longest live cached prefix among the first `count` units (0 if none). */
function longestHit(
  hashes: readonly number[],
  units: readonly CacheUnit[],
  count: number,
  now: number,
): number {
  for (let i = count - 1; i >= 0; i--) {
    const hit = entries.get(hashes[i] as number);
    if (hit && hit.until > now) return (units[i] as CacheUnit).tokens;
  }
  return 0;
}

/** Usage for a prompt with explicit breakpoints; writes what it reports as written. */
export function explicitCache(
  scope: string,
  units: readonly CacheUnit[],
  min: number,
  now: number,
): ExplicitUsage {
  let last = -1;
  for (let i = 0; i < units.length; i++) if (units[i]?.breakpoint) last = i;
  if (last < 0 || (units[last] as CacheUnit).tokens < min) return { read: 0, write5m: 0, write1h: 0 };
  const hashes = prefixHashes(scope, units);
  const read = longestHit(hashes, units, last + 1, now);
  const written: Record<CacheTtl, number> = { '5m': 0, '1h': 0 };
  let from = read;
  for (let i = 0; i <= last; i++) {
    const unit = units[i] as CacheUnit;
    if (!unit.breakpoint) continue;
    if (unit.tokens > from) {
      written[unit.breakpoint] += unit.tokens - from;
      from = unit.tokens;
    }
    if (unit.tokens >= min) remember(hashes[i] as number, unit.tokens, now + TTL_MS[unit.breakpoint]);
  }
  return { read, write5m: written['5m'], write1h: written['1h'] };
}

/** Cached tokens for an implicitly cached prompt (whole prompt = the last unit); remembers this prompt. */
export function implicitCache(
  scope: string,
  units: readonly CacheUnit[],
  min: number,
  increment: number,
  now: number,
): number {
  const total = units.at(-1)?.tokens ?? 0;
  if (units.length === 0 || total < min) return 0;
  const hashes = prefixHashes(scope, units);
  const read = longestHit(hashes, units, units.length, now);
  for (let i = 0; i < units.length; i++)
    if ((units[i] as CacheUnit).tokens >= min)
      remember(hashes[i] as number, (units[i] as CacheUnit).tokens, now + IMPLICIT_MS);
  return read < min ? 0 : Math.floor(read / increment) * increment;
}

/** The providers' minimum cacheable prompt, unless `mock.cache_min_tokens` lowers it for a test. */
export const DEFAULT_CACHE_MIN_TOKENS = 1024;

/** Units for a list of messages, one per message, with the prompt-token rule's running total. */
export function messageUnits(
  messages: readonly { readonly role?: unknown; readonly content?: unknown }[],
  textOf: (content: unknown) => string,
): CacheUnit[] {
  let tokens = 3;
  return messages.map((message) => {
    tokens += 4 + Math.ceil(textOf(message.content).length / 4);
    return { value: message, tokens };
  });
}
