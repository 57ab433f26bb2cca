/**
 * An issuer's signing keys (its JWKS), cached per isolate for JWKS_TTL_MS. A
 * token whose key is not in the cached set makes one refetch (a rotated key),
 * but at most one per REFRESH_GAP_MS per URL, so tokens with made-up key ids
 * cannot make the gateway hammer the issuer. Only the admin API and the
 * dashboard use it, never /v1.
 */
import * as z from 'zod';
import { fetchJson, type HttpGet } from './fetch-json';
import { Jwk } from './jwt';

export const JWKS_TTL_MS = 10 * 60_000;
export const REFRESH_GAP_MS = 30_000;

const JwkSet = z.object({ keys: z.array(z.unknown()) });

interface Cached {
  keys: readonly Jwk[];
  fetchedAt: number;
}

export class KeySets {
  private readonly cache = new Map<string, Cached>();
  private readonly pending = new Map<string, Promise<Cached>>();

  constructor(
    private readonly get: HttpGet,
    private readonly now: () => number = Date.now,
  ) {}

  /** The keys at `url`; with `refresh`, fetched again unless they were fetched in the last REFRESH_GAP_MS. */
  async keys(url: string, refresh = false): Promise<readonly Jwk[]> {
    const cached = this.cache.get(url);
    const age = cached ? this.now() - cached.fetchedAt : Number.POSITIVE_INFINITY;
    if (cached && age < (refresh ? REFRESH_GAP_MS : JWKS_TTL_MS)) return cached.keys;
    return (await this.load(url)).keys;
  }

  private load(url: string): Promise<Cached> {
    let flight = this.pending.get(url);
    if (!flight) {
      flight = fetchJson(this.get, url, JwkSet)
        .then((set) => {
          // Keys of types this gateway does not verify (symmetric, OKP …) are skipped, not fatal.
          const keys = set.keys.flatMap((k) => {
            const parsed = Jwk.safeParse(k);
            return parsed.success ? [parsed.data] : [];
          });
          const entry = { keys, fetchedAt: this.now() };
          this.cache.set(url, entry);
          return entry;
        })
        .finally(() => this.pending.delete(url));
      this.pending.set(url, flight);
    }
    return flight;
  }
}
