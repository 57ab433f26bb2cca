// Launches headless Chromium (whichever find-chromium.mjs picks) through playwright-core,
// offline: no first-run, sync, component updates or QUIC, and a throwaway profile.
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT } from '../../scripts/stack.mjs';
import { findChromium } from './find-chromium.mjs';
import { packagedBinDir, unpackChromium } from './packaged-chromium.mjs';

export const ARTIFACTS = join(ROOT, 'test-artifacts');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const isExecutable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const listDir = (path) => {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
};

/** The executable to launch and any environment it needs, unpacking the npm-shipped one if it is chosen. */
export async function resolveChromium(env = process.env) {
  const choice = findChromium({ env, home: homedir(), isExecutable, listDir, packagedBinDir });
  if (choice.source !== 'npm') return { ...choice, env: {} };
  return { source: choice.source, ...(await unpackChromium(choice.binDir)) };
}

/** A persistent context on a fresh temp profile; close() also removes the profile. */
export async function launch({ env = process.env } = {}) {
  const browser = await resolveChromium(env);
  const profile = mkdtempSync(join(tmpdir(), 'edgeway-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    source: browser.source,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot as a test artefact (test-artifacts/ is git-ignored). */
export async function shot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });
}

/** Reloads `page` until `check()` is true, for at most `timeoutMs` (logs arrive through a queue). */
export async function pollPage(page, check, { timeoutMs = 30_000, intervalMs = 500 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms waiting on ${page.url()}`);
    await new Promise((r) => setTimeout(r, intervalMs));
    await page.reload();
  }
}
