/**
 * Admin price overrides per model. D1 (price_overrides) is the source of
 * truth; every change republishes the whole set as one KV value, and the hot
 * path reads that value through an isolate cache of OVERRIDES_TTL_MS, so a
 * request never reads D1 and an isolate reads KV at most once per TTL.
 * Propagation bound: the changing isolate at once; others within the TTL plus
 * KV's own propagation (about 60 s).
 */
import * as z from 'zod';
import { type Price, StoredPrice } from '../core/pricing';

export const OVERRIDES_KV_KEY = 'pricing:overrides';
export const OVERRIDES_TTL_MS = 10_000;

/** The published set; a value written before cache writes were priced reads with their defaults. */
export const PriceOverrides = z.record(z.string(), StoredPrice);
export type PriceOverrides = Readonly<Record<string, Price>>;

export interface PriceBook {
  /** The current overrides (isolate cache, then KV). Never throws: a failed read means none. */
  overrides(): Promise<PriceOverrides>;
  /** Forget the cached set, after this isolate changed it. */
  invalidate(): void;
}

const books = new WeakMap<KVNamespace, PriceBook>();

/** One book per KV binding, so the admin API and the hot path of an isolate share its cache. */
export function priceBook(kv: KVNamespace, now: () => number = Date.now): PriceBook {
  let book = books.get(kv);
  if (!book) {
    book = kvPriceBook(kv, now);
    books.set(kv, book);
  }
  return book;
}

function kvPriceBook(kv: KVNamespace, now: () => number): PriceBook {
  let cached: { value: PriceOverrides; until: number } | null = null;
  let loading: Promise<PriceOverrides> | null = null;
  const load = async (): Promise<PriceOverrides> => {
    try {
      const raw = await kv.get(OVERRIDES_KV_KEY, 'json');
      const parsed = PriceOverrides.safeParse(raw ?? {});
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  };
  return {
    async overrides() {
      if (cached && cached.until > now()) return cached.value;
      loading ??= load().then((value) => {
        cached = { value, until: now() + OVERRIDES_TTL_MS };
        loading = null;
        return value;
      });
      return loading;
    },
    invalidate() {
      cached = null;
    },
  };
}

interface OverrideRow {
  model: string;
  input: number;
  output: number;
  cached: number;
  /** NULL in rows written before migration 0016: the defaults apply. */
  cache_write: number | null;
  cache_write_1h: number | null;
}

export async function listOverrides(db: D1Database): Promise<Record<string, Price>> {
  const { results } = await db
    .prepare(
      'SELECT model, input, output, cached, cache_write, cache_write_1h FROM price_overrides ORDER BY model',
    )
    .all<OverrideRow>();
  return Object.fromEntries(
    results.map((r) => [
      r.model,
      StoredPrice.parse({
        input: r.input,
        output: r.output,
        cached: r.cached,
        cache_write: r.cache_write ?? undefined,
        cache_write_1h: r.cache_write_1h ?? undefined,
      }),
    ]),
  );
}

/** Writes (price) or deletes (null) one override, then republishes the whole set to KV. Returns false when deleting a missing one. */
export async function setOverride(
  db: D1Database,
  kv: KVNamespace,
  model: string,
  price: Price | null,
): Promise<boolean> {
  const result = price
    ? await db
        .prepare(
          'INSERT OR REPLACE INTO price_overrides (model, input, output, cached, cache_write, cache_write_1h, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .bind(
          model,
          price.input,
          price.output,
          price.cached,
          price.cache_write,
          price.cache_write_1h,
          Date.now(),
        )
        .run()
    : await db.prepare('DELETE FROM price_overrides WHERE model = ?').bind(model).run();
  await kv.put(OVERRIDES_KV_KEY, JSON.stringify(await listOverrides(db)));
  priceBook(kv).invalidate();
  return result.meta.changes > 0;
}
