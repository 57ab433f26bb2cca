// The Chromium finder's order, over a fake filesystem: CHROMIUM_PATH, system browser (PATH, then the
// usual absolute paths), Playwright's cache (newest revision first), then the npm-shipped one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findChromium } from './find-chromium.mjs';

const HOME = '/home/dev';
const PW = '/home/dev/.cache/ms-playwright';

/** A host whose filesystem holds exactly `files` (all executable); the npm package is there unless told. */
function host(files, env = {}, { packaged = true } = {}) {
  const set = new Set(files);
  return {
    env: { PATH: '/opt/tools/bin:/usr/local/bin', ...env },
    home: HOME,
    isExecutable: (p) => set.has(p),
    listDir: (dir) => [
      ...new Set(
        files.filter((f) => f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1).split('/')[0]),
      ),
    ],
    packagedBinDir: () => (packaged ? '/repo/node_modules/@sparticuz/chromium/bin' : null),
  };
}

const everything = [
  '/opt/tools/bin/google-chrome',
  '/usr/bin/chromium',
  `${PW}/chromium-1200/chrome-linux64/chrome`,
  `${PW}/chromium-1255/chrome-linux64/chrome`,
];

test('CHROMIUM_PATH wins over everything, even a path that does not exist', () => {
  const choice = findChromium(host(everything, { CHROMIUM_PATH: '/custom/chrome' }));
  assert.deepEqual(choice, { source: 'env', executablePath: '/custom/chrome' });
});

test('an empty CHROMIUM_PATH counts as unset', () => {
  assert.equal(findChromium(host(everything, { CHROMIUM_PATH: '' })).source, 'system');
});

test('a system browser on PATH comes before the usual absolute paths', () => {
  const choice = findChromium(host(everything));
  assert.deepEqual(choice, { source: 'system', executablePath: '/opt/tools/bin/google-chrome' });
});

test('PATH directories are searched in order, each for chromium, chromium-browser, google-chrome', () => {
  const files = ['/usr/local/bin/chromium', '/opt/tools/bin/chromium-browser'];
  assert.equal(findChromium(host(files)).executablePath, '/opt/tools/bin/chromium-browser');
});

test('with nothing on PATH, the usual absolute paths are tried', () => {
  const choice = findChromium(host(everything.slice(1), { PATH: '/nowhere' }));
  assert.deepEqual(choice, { source: 'system', executablePath: '/usr/bin/chromium' });
});

test('with no system browser, the newest Playwright-installed Chromium is used', () => {
  const choice = findChromium(host(everything.slice(2)));
  assert.deepEqual(choice, {
    source: 'playwright',
    executablePath: `${PW}/chromium-1255/chrome-linux64/chrome`,
  });
});

test("Playwright's headless shell is used when it has no full Chromium", () => {
  const shell = `${PW}/chromium_headless_shell-1255/chrome-headless-shell-linux64/chrome-headless-shell`;
  assert.deepEqual(findChromium(host([shell])), { source: 'playwright', executablePath: shell });
});

test('PLAYWRIGHT_BROWSERS_PATH moves the Playwright cache', () => {
  const exe = '/srv/pw/chromium-1300/chrome-linux64/chrome';
  const files = [exe, `${PW}/chromium-1255/chrome-linux64/chrome`];
  const choice = findChromium(host(files, { PLAYWRIGHT_BROWSERS_PATH: '/srv/pw' }));
  assert.equal(choice.executablePath, exe);
});

test('a Playwright folder with no executable in it is passed over', () => {
  const files = [`${PW}/chromium-1300/INSTALLATION_COMPLETE`, `${PW}/chromium-1255/chrome-linux64/chrome`];
  assert.equal(findChromium(host(files)).executablePath, `${PW}/chromium-1255/chrome-linux64/chrome`);
});

test('with neither a system nor a Playwright Chromium, the npm-shipped one is chosen', () => {
  assert.deepEqual(findChromium(host([])), {
    source: 'npm',
    binDir: '/repo/node_modules/@sparticuz/chromium/bin',
  });
});

test('CHROMIUM_SKIP passes over the system and Playwright steps', () => {
  assert.equal(findChromium(host(everything, { CHROMIUM_SKIP: 'system' })).source, 'playwright');
  assert.equal(findChromium(host(everything, { CHROMIUM_SKIP: 'system,playwright' })).source, 'npm');
});

test('with no Chromium anywhere it throws, saying what to do', () => {
  assert.throws(
    () => findChromium(host([], {}, { packaged: false })),
    /No Chromium found: set CHROMIUM_PATH/,
  );
});
