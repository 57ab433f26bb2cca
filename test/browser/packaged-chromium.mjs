// Unpacks the headless Chromium shipped (Brotli-compressed) in the @sparticuz/chromium devDependency into
// node_modules/.cache/edgeway-chromium/<version>/ on first use, and says how to run it: the package's NSS
// libraries on LD_LIBRARY_PATH (a bare machine has none) and a fontconfig file naming its bundled fonts.
// Nothing is downloaded: the bytes came with `npm install`. Linux x64 only, as the package is.
import { spawnSync } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { brotliDecompress, createBrotliDecompress } from 'node:zlib';
import { ROOT } from '../../scripts/stack.mjs';

const PACKAGE = '@sparticuz/chromium';
const unbrotli = promisify(brotliDecompress);
const CACHE = join(ROOT, 'node_modules', '.cache', 'edgeway-chromium');

/** The package's folder of compressed files, or null where it is not installed or cannot run. */
export function packagedBinDir() {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null;
  // Node's own lookup path, not require.resolve: the package exports neither its package.json nor bin/.
  const folders = createRequire(join(ROOT, 'package.json')).resolve.paths(PACKAGE) ?? [];
  const bins = folders.map((folder) => join(folder, PACKAGE, 'bin'));
  return bins.find((bin) => existsSync(join(bin, 'chromium.br'))) ?? null;
}

/** @returns {Promise<{ executablePath: string, env: Record<string, string> }>} */
export async function unpackChromium(binDir, cacheRoot = CACHE) {
  const { version } = JSON.parse(readFileSync(join(binDir, '..', 'package.json'), 'utf8'));
  const dir = join(cacheRoot, version);
  if (!existsSync(join(dir, 'chromium'))) await unpackInto(binDir, dir);
  const ldPath = [join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return { executablePath: join(dir, 'chromium'), env: { LD_LIBRARY_PATH: ldPath, FONTCONFIG_PATH: dir } };
}

/** Unpacks into a private folder renamed into place last, so a half-done unpack is never used. */
async function unpackInto(binDir, dir) {
  const work = `${dir}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    await Promise.all([
      pipeline(
        createReadStream(join(binDir, 'chromium.br')),
        createBrotliDecompress(),
        createWriteStream(join(work, 'chromium'), { mode: 0o755 }),
      ),
      untar(join(binDir, 'al2023.tar.br'), work), // lib/libnss3.so and friends
      untar(join(binDir, 'swiftshader.tar.br'), work), // software GL, looked up beside the executable
      untar(join(binDir, 'fonts.tar.br'), join(work, 'bundled-fonts')),
    ]);
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
  writeFileSync(
    join(work, 'fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
      `  <dir>${join(dir, 'bundled-fonts', 'fonts')}</dir>\n  <dir>/usr/share/fonts</dir>\n` +
      `  <cachedir>${join(dir, 'fontconfig-cache')}</cachedir>\n</fontconfig>\n`,
  );
  try {
    renameSync(work, dir);
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    if (!existsSync(join(dir, 'chromium'))) throw err; // else another process unpacked it first
  }
}

/** Brotli-decompresses a (small) tarball into `dest` through the system's tar. */
async function untar(file, dest) {
  mkdirSync(dest, { recursive: true });
  const input = await unbrotli(await readFile(file));
  const tar = spawnSync('tar', ['-x', '-C', dest], { input, encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar ${file}: ${tar.error?.message ?? tar.stderr}`);
}
