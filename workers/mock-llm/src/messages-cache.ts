/**
 * Anthropic prompt caching for the mock: the `cache_control` breakpoints of a
 * Messages request (on tools, system blocks and message content blocks; type
 * `ephemeral`, ttl `5m` or `1h`; at most 4, as the real API allows) and the
 * request as cache units in Anthropic's prefix order, tools → system →
 * messages, each unit carrying the prompt tokens through it (src/prompt-cache.ts).
 * Validation is pure; the units are built only for requests with a breakpoint.
 */
import type { CacheTtl, CacheUnit } from './prompt-cache';
import { contentText, type MessageLike } from './text';
import { fail, isRecord, type Parsed } from './validate';

export const MAX_BREAKPOINTS = 4;

/** The ttl of a block's cache_control (validated), or undefined when it has none. */
function breakpointOf(block: unknown, at: string): Parsed<CacheTtl | undefined> {
  if (!isRecord(block) || block.cache_control === undefined || block.cache_control === null)
    return { ok: true, value: undefined };
  const control = block.cache_control;
  if (!isRecord(control) || control.type !== 'ephemeral')
    return fail(`${at}.cache_control.type: Input should be 'ephemeral'`, at);
  if (control.ttl !== undefined && control.ttl !== '5m' && control.ttl !== '1h')
    return fail(`${at}.cache_control.ttl: Input should be '5m' or '1h'`, at);
  return { ok: true, value: (control.ttl as CacheTtl | undefined) ?? '5m' };
}

function withoutMarker(block: unknown): unknown {
  if (!isRecord(block) || block.cache_control === undefined) return block;
  const { cache_control: _marker, ...rest } = block;
  return rest;
}

/** Builds units, validating each cache_control on the way; `count` is the number of breakpoints. */
export function cacheUnits(
  tools: unknown,
  system: unknown,
  messages: readonly MessageLike[],
): Parsed<{ units: CacheUnit[]; count: number }> {
  const units: CacheUnit[] = [];
  let count = 0;
  const add = (value: unknown, tokens: number, block: unknown, at: string): Parsed<undefined> => {
    const ttl = breakpointOf(block, at);
    if (!ttl.ok) return ttl;
    if (ttl.value) count++;
    units.push(ttl.value ? { value, tokens, breakpoint: ttl.value } : { value, tokens });
    return { ok: true, value: undefined };
  };
  let total = 3;
  if (Array.isArray(tools))
    for (const [i, tool] of tools.entries()) {
      const added = add({ tool: withoutMarker(tool) }, total, tool, `tools.${i}`);
      if (!added.ok) return added;
    }
  const blocks = (content: unknown, role: string, at: string): Parsed<undefined> => {
    const base = total;
    if (!Array.isArray(content)) {
      total = base + 4 + Math.ceil(contentText(content).length / 4);
      units.push({ value: { role, content }, tokens: total });
      return { ok: true, value: undefined };
    }
    let chars = 0;
    for (const [j, block] of content.entries()) {
      chars += contentText([block]).length;
      total = base + 4 + Math.ceil(chars / 4);
      const value = j === 0 ? { role, block: withoutMarker(block) } : withoutMarker(block);
      const added = add(value, total, block, `${at}.${j}`);
      if (!added.ok) return added;
    }
    if (content.length === 0) total = base + 4;
    return { ok: true, value: undefined };
  };
  if (system !== undefined) {
    const done = blocks(system, 'system', 'system');
    if (!done.ok) return done;
  }
  for (const [i, message] of messages.entries()) {
    const done = blocks(message.content, String(message.role), `messages.${i}.content`);
    if (!done.ok) return done;
  }
  if (count > MAX_BREAKPOINTS)
    return fail(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${count}.`);
  return { ok: true, value: { units, count } };
}

/** True when the request carries any `cache_control` (a cheap scan before building units). */
export function hasCacheControl(tools: unknown, system: unknown, messages: readonly MessageLike[]): boolean {
  const marked = (list: unknown) =>
    Array.isArray(list) && list.some((b) => isRecord(b) && b.cache_control !== undefined);
  return marked(tools) || marked(system) || messages.some((m) => marked(m.content));
}
