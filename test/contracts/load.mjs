/**
 * Loads ./subjects.ts (the codecs, the mock LLM and the corpus, all plain TypeScript) into Node:
 * esbuild bundles it to a temporary ES module, which is imported and removed. The codecs and the
 * mock use Web APIs only, so they run here as in workerd; Node is needed because ajv compiles its
 * validators with `new Function`, which workerd forbids.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const HERE = dirname(fileURLToPath(import.meta.url));

export async function loadSubjects() {
  const dir = mkdtempSync(join(tmpdir(), 'edgeway-contracts-'));
  const outfile = join(dir, 'subjects.mjs');
  try {
    await build({
      entryPoints: [join(HERE, 'subjects.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
