// Picks the Chromium the browser tests drive, so that a fresh machine needs nothing installed by hand.
// Order: CHROMIUM_PATH; the system's chromium / chromium-browser / google-chrome (PATH, then the usual
// absolute paths); a Playwright-installed one; else the Chromium shipped in the @sparticuz/chromium
// devDependency (Linux x64), which packaged-chromium.mjs unpacks on first use. Pure over an injected
// filesystem and environment; CHROMIUM_SKIP=system,playwright exists only to prove the last step here.
import { delimiter, join } from 'node:path';

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const SYSTEM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
];
/** Playwright's cache layout: `<browser>-<revision>/<folder>/<executable>`, newest revision first. */
const PLAYWRIGHT_LAYOUTS = [
  { prefix: 'chromium-', exe: ['chrome-linux64', 'chrome'] },
  { prefix: 'chromium-', exe: ['chrome-linux', 'chrome'] },
  { prefix: 'chromium_headless_shell-', exe: ['chrome-headless-shell-linux64', 'chrome-headless-shell'] },
  { prefix: 'chromium_headless_shell-', exe: ['chrome-linux', 'headless_shell'] },
];

/**
 * @typedef {{ source: 'env' | 'system' | 'playwright', executablePath: string }
 *   | { source: 'npm', binDir: string }} ChromiumChoice
 * @typedef {{
 *   env: Record<string, string | undefined>,
 *   home: string,
 *   isExecutable: (path: string) => boolean,
 *   listDir: (path: string) => string[],
 *   packagedBinDir: () => string | null,
 * }} FinderHost
 */

/** @param {FinderHost} host @returns {ChromiumChoice} */
export function findChromium(host) {
  const { env } = host;
  if (env.CHROMIUM_PATH) return { source: 'env', executablePath: env.CHROMIUM_PATH };
  const skip = new Set((env.CHROMIUM_SKIP ?? '').split(',').map((s) => s.trim()));
  const first = (paths) => paths.find((p) => host.isExecutable(p));

  if (!skip.has('system')) {
    const onPath = (env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .flatMap((dir) => SYSTEM_NAMES.map((name) => join(dir, name)));
    const found = first([...onPath, ...SYSTEM_PATHS]);
    if (found) return { source: 'system', executablePath: found };
  }
  if (!skip.has('playwright')) {
    const found = first(playwrightCandidates(host));
    if (found) return { source: 'playwright', executablePath: found };
  }
  const binDir = host.packagedBinDir();
  if (binDir) return { source: 'npm', binDir };
  throw new Error(
    'No Chromium found: set CHROMIUM_PATH, install chromium, or run `npm install` on Linux x64 ' +
      '(the @sparticuz/chromium devDependency ships one).',
  );
}

function playwrightCandidates(host) {
  const root = host.env.PLAYWRIGHT_BROWSERS_PATH || join(host.home, '.cache', 'ms-playwright');
  const entries = host.listDir(root);
  const revision = (name) => Number(name.slice(name.lastIndexOf('-') + 1)) || 0;
  return PLAYWRIGHT_LAYOUTS.flatMap(({ prefix, exe }) =>
    entries
      .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
      .sort((a, b) => revision(b) - revision(a))
      .map((name) => join(root, name, ...exe)),
  );
}
