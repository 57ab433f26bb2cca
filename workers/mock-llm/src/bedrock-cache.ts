/**
 * Bedrock prompt caching for the mock: `cachePoint` blocks (`{type: "default",
 * ttl?: "5m" | "1h"}`) in `toolConfig.tools`, `system` and message content
 * mark the end of a cacheable prefix. The request becomes cache units in
 * prefix order (tools → system → messages), each with the prompt tokens
 * through it, a cache point marking the unit before it (src/prompt-cache.ts).
 * Pure; built only for requests with a cache point.
 */
import type { CacheTtl, CacheUnit } from './prompt-cache';
import { contentText, type MessageLike } from './text';
import { isRecord } from './validate';

const isCachePoint = (block: unknown): block is { cachePoint: Record<string, unknown> } =>
  isRecord(block) && isRecord(block.cachePoint);

/** True when the body has a cache point anywhere (a cheap scan). */
export function hasCachePoint(tools: unknown, system: unknown, messages: readonly MessageLike[]): boolean {
  const marked = (list: unknown) => Array.isArray(list) && list.some(isCachePoint);
  return marked(tools) || marked(system) || messages.some((m) => marked(m.content));
}

export function cachePointUnits(
  tools: unknown,
  system: unknown,
  messages: readonly MessageLike[],
): CacheUnit[] {
  const units: CacheUnit[] = [];
  const mark = (ttl: unknown) => {
    const last = units.pop();
    if (last) units.push({ ...last, breakpoint: ttl === '1h' ? '1h' : ('5m' as CacheTtl) });
  };
  let total = 3;
  for (const tool of Array.isArray(tools) ? tools : []) {
    if (isCachePoint(tool)) mark(tool.cachePoint.ttl);
    else units.push({ value: { tool }, tokens: total });
  }
  const blocks = (content: unknown, role: string) => {
    const base = total;
    let chars = 0;
    total = base + 4;
    for (const [j, block] of (Array.isArray(content) ? content : []).entries()) {
      if (isCachePoint(block)) {
        mark(block.cachePoint.ttl);
        continue;
      }
      chars += contentText([block]).length;
      total = base + 4 + Math.ceil(chars / 4);
      units.push({ value: j === 0 ? { role, block } : block, tokens: total });
    }
  };
  if (system !== undefined) blocks(system, 'system');
  for (const message of messages) blocks(message.content, String(message.role));
  return units;
}
