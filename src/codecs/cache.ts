/**
 * Cache breakpoints across formats (pure): Anthropic's `cache_control` (also the convention some
 * clients use on OpenAI's format) ⇄ the canonical marker, and whether a request sets any, for
 * formats that cannot carry them.
 */
import type { CacheMarker, ChatRequest } from './ir';
import { type Json, obj } from './json';

const ONE_HOUR: CacheMarker = { ttl: '1h' };
const FIVE_MINUTES: CacheMarker = { ttl: '5m' };

/** The marker on a block, tool or system entry; undefined when it has none (any other `type` is not a breakpoint). */
export function cacheOf(block: Json): CacheMarker | undefined {
  const control = obj(block.cache_control);
  if (control?.type !== 'ephemeral') return undefined;
  return control.ttl === '1h' ? ONE_HOUR : FIVE_MINUTES;
}

/** `{cache_control}` for a marker (spread into the block), or nothing. 5 minutes is Anthropic's default and is left implicit. */
export function cacheControl(marker: CacheMarker | undefined): Json {
  if (!marker) return {};
  return { cache_control: marker.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' } };
}

/** The same marker as a part property (spread into a canonical part), or nothing. */
export const withCache = (marker: CacheMarker | undefined): { cache?: CacheMarker } =>
  marker ? { cache: marker } : {};

export function hasCacheMarkers(request: ChatRequest): boolean {
  return (
    request.system.some((p) => p.cache) ||
    request.tools.some((t) => t.cache) ||
    request.messages.some((m) => m.content.some((p) => 'cache' in p && p.cache))
  );
}
