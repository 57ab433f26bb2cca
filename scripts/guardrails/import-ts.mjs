/**
 * Imports TypeScript modules of src/ into a Node script, bundled by esbuild
 * (a devDependency): the training, evaluation and benchmark scripts run the
 * very code the Worker runs, not a copy of it.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `exports`: lines such as "export { x } from './src/…';", resolved from the repository root. */
export async function importTs(exports) {
  const result = await build({
    stdin: { contents: exports.join('\n'), resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}
