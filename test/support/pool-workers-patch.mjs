/**
 * Mends one defect of @cloudflare/vitest-pool-workers (0.15.1, and still in 0.23.0) before the pool starts.
 *
 * Its `createProxyPrototypeClass` wraps the entrypoint wrapper's prototype in one more Proxy every time the
 * class is constructed, and workerd constructs it for every `SELF.fetch` (and every Durable Object wrapper
 * instance). A property lookup then walks one proxy per earlier call, so the n-th `SELF.fetch` of a runner
 * costs O(n): /healthz took 4 ms at the 100th call and 40 ms at the 300th, and a runner shared by many test
 * files (vitest's `isolate: false`) would grow quadratically. Wrapping once gives the same lookups (the proxy
 * defers to the same prototype), at a constant cost.
 *
 * The edit is idempotent, and fails loudly when the code it mends is not found, so an upgrade that changes
 * it is noticed rather than silently slow.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEFECT = '\t\tClass.prototype = new Proxy(Class.prototype, { get(target, key, receiver) {';
const MENDED =
  '\t\tif (!Class[WRAPPED_ONCE] && (Class[WRAPPED_ONCE] = true)) Class.prototype = new Proxy(Class.prototype, { get(target, key, receiver) {';
const DECLARATION = 'const WRAPPED_ONCE = Symbol.for("edgeway.wrapped-once");\n';

export function mendPoolWorkers() {
  // The package exports only its ESM pool entry (dist/pool/index.mjs); the runner's code sits beside it.
  const pool = dirname(fileURLToPath(import.meta.resolve('@cloudflare/vitest-pool-workers')));
  const file = join(pool, '..', 'worker', 'lib', 'cloudflare', 'test-internal.mjs');
  const source = readFileSync(file, 'utf8');
  if (source.includes(MENDED)) return 'already mended';
  if (!source.includes(DEFECT)) {
    throw new Error(
      `test/support/pool-workers-patch.mjs: the code it mends is not in ${file}; check the upgrade`,
    );
  }
  writeFileSync(file, DECLARATION + source.replace(DEFECT, MENDED));
  return 'mended';
}
