/**
 * The key half of the capacity driver: seeds keys in D1 (and, for the KV tier,
 * their records in KV as TieredKeyStore writes them back), then looks them up
 * through the real TieredKeyStore (src/storage/key-store.ts) with the real D1
 * loader. Which tier answers is chosen by which hashes are asked: one hash
 * again and again (isolate memory), hashes seeded in KV and not yet looked up
 * (KV), hashes only in D1 (KV miss, D1 read, KV write-back), hashes nowhere
 * (KV miss, D1 miss). The harness times the requests.
 */
import { d1KeyLoader } from '../../src/storage/d1-keys';
import { TieredKeyStore, kvKey, KV_RECORD_TTL_S } from '../../src/storage/key-store';

export interface KeyEnv {
  readonly DB_WHOLE: D1Database;
  readonly KV: KVNamespace;
}

const TENANT = 'ten_keys';
let store: TieredKeyStore | null = null;

const storeFor = (env: KeyEnv) => {
  store ??= new TieredKeyStore(env.KV, d1KeyLoader(env.DB_WHOLE));
  return store;
};

/** `n` keys named `<prefix><i>` in D1; with `kv=1` their records in KV too. */
export async function seed(url: URL, env: KeyEnv): Promise<Response> {
  const prefix = url.searchParams.get('prefix') ?? 'k_';
  const n = Number(url.searchParams.get('n') ?? 0);
  const now = Date.now();
  const db = env.DB_WHOLE;
  await db
    .prepare('INSERT OR IGNORE INTO tenants (id, name, created_at, updated_at) VALUES (?1, ?1, ?2, ?2)')
    .bind(TENANT, now)
    .run();
  const insert = db.prepare(
    'INSERT INTO api_keys (id, tenant_id, key_hash, hint, created_at, updated_at) VALUES (?1, ?2, ?3, ?3, ?4, ?4)',
  );
  const hashes = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  for (let i = 0; i < n; i += 100)
    await db.batch(hashes.slice(i, i + 100).map((h) => insert.bind(`key_${h}`, TENANT, h, now)));
  if (url.searchParams.get('kv') === '1') {
    const load = d1KeyLoader(db);
    for (const h of hashes)
      await env.KV.put(kvKey(h), JSON.stringify(await load(h)), { expirationTtl: KV_RECORD_TTL_S });
  }
  return Response.json({ seeded: n });
}

/** `n` lookups of `<prefix><from + i>`, or of `hash` n times; answers how many were found. */
export async function lookup(url: URL, env: KeyEnv): Promise<Response> {
  const keys = storeFor(env);
  const n = Number(url.searchParams.get('n') ?? 0);
  const hash = url.searchParams.get('hash');
  const prefix = url.searchParams.get('prefix') ?? 'k_';
  const from = Number(url.searchParams.get('from') ?? 0);
  let found = 0;
  for (let i = 0; i < n; i++) if (await keys.findByHash(hash ?? `${prefix}${from + i}`)) found++;
  return Response.json({ lookups: n, found });
}
