/**
 * What the client and the key ask of the cache for one request (pure):
 * whether to look up, whether to store, for how long, under which namespace.
 * Request headers accept ours and Cloudflare AI Gateway's spellings.
 */
import { badRequest } from '../core/errors';
import type { CacheSettings } from '../core/settings';
import { KV_MIN_TTL_S } from './exact-cache';

export interface CacheDirectives {
  readonly lookup: boolean;
  readonly store: boolean;
  readonly ttlSeconds: number;
  readonly namespace: string | null;
  readonly semantic: boolean;
}

export const DEFAULT_TTL_S = 3600;
const MAX_TTL_S = 31_536_000;

export function cacheDirectives(headers: Headers, settings: CacheSettings): CacheDirectives {
  const ttlHeader = headers.get('cf-aig-cache-ttl');
  const ttl = ttlHeader === null ? null : parseTtl(ttlHeader);
  const ours = (headers.get('x-edgeway-cache') ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim());
  const noCache = ours.includes('no-cache') || headers.get('cf-aig-skip-cache')?.toLowerCase() === 'true';
  const noStore = ours.includes('no-store');
  const enabled = settings.exact === true || settings.semantic === true || ttl !== null;
  const namespace = headers.get('cf-aig-cache-key');
  if (namespace !== null && (namespace.length === 0 || namespace.length > 256)) {
    throw badRequest(
      'Header cf-aig-cache-key must be 1 to 256 characters.',
      'cf-aig-cache-key',
      'invalid_header',
    );
  }
  return {
    lookup: enabled && !noCache,
    store: enabled && !noStore,
    ttlSeconds: ttl ?? settings.ttl_seconds ?? DEFAULT_TTL_S,
    namespace,
    semantic: settings.semantic === true && !noCache,
  };
}

function parseTtl(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_TTL_S) {
    throw badRequest(
      `Header cf-aig-cache-ttl must be an integer number of seconds between 1 and ${MAX_TTL_S}.`,
      'cf-aig-cache-ttl',
      'invalid_header',
    );
  }
  return Math.max(KV_MIN_TTL_S, n);
}
