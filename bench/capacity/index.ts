/**
 * The capacity bench driver: a Worker that puts the gateway's real log write
 * path and key lookup through real D1, R2 and KV bindings, and nothing else
 * (bench/lib/workloads/capacity.mjs starts it and times its requests).
 *
 *   POST /logs/prepare?batches&messages&lo&hi&tenants&payloadShare&requestChars&responseChars&seed
 *   POST /logs/consume?mode=whole|index|rollups   consumes what was prepared; counts statements, rows, puts
 *   GET  /logs/tables?mode=whole|index|rollups    log table rows and the mode's database's size
 *   POST /keys/seed?prefix&n&kv=0|1    keys in D1 (and KV)
 *   POST /keys/lookup?prefix&from&n | ?hash&n   lookups through TieredKeyStore
 */
import { type KeyEnv, lookup, seed } from './keys-drive';
import { type LogEnv, consume, prepare, tables } from './logs-drive';

type Env = LogEnv & KeyEnv;

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    switch (url.pathname) {
      case '/logs/prepare':
        return prepare(url);
      case '/logs/consume':
        return consume(url, env);
      case '/logs/tables':
        return tables(url, env);
      case '/keys/seed':
        return seed(url, env);
      case '/keys/lookup':
        return lookup(url, env);
      default:
        return new Response('not found', { status: 404 });
    }
  },
} satisfies ExportedHandler<Env>;
