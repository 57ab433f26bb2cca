/**
 * Starts the capacity driver (bench/capacity) in its own workerd process
 * through Miniflare, bindings from its wrangler.toml, and applies the gateway's
 * migrations to each of its databases, as `wrangler d1 migrations apply` would.
 * Storage is in memory and starts empty.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from 'wrangler';
import { ROOT, startWorker } from '../lib/stack.mjs';

export const CONFIG = 'bench/capacity/wrangler.toml';
const DATABASES = ['DB_WHOLE', 'DB_INDEX', 'DB_ROLLUPS'];

export async function startDriver(script) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, CONFIG));
  const options = { ...workerOptions, name: 'capacity', modules: true, scriptPath: script };
  delete options.modulesRules;
  const worker = await startWorker('capacity', options);
  const dir = join(ROOT, 'migrations');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  for (const binding of DATABASES) {
    const db = await worker.mf.getD1Database(binding);
    for (const file of files) {
      const statements = unstable_splitSqlQuery(readFileSync(join(dir, file), 'utf8'));
      await db.batch(statements.map((s) => db.prepare(s)));
    }
  }
  return worker;
}
