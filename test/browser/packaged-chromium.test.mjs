// The last resort of the Chromium finder really works here: the npm-shipped Chromium unpacks, launches
// headless through playwright-core with its own libraries and fonts, and renders and scripts a page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launch } from './chromium.mjs';
import { packagedBinDir } from './packaged-chromium.mjs';

const skip = packagedBinDir() ? false : 'the npm-shipped Chromium exists for Linux x64 only';

test('the npm-shipped Chromium launches headless and renders text', { skip, timeout: 180_000 }, async () => {
  const env = { ...process.env, CHROMIUM_PATH: '', CHROMIUM_SKIP: 'system,playwright' };
  const browser = await launch({ env });
  try {
    assert.equal(browser.source, 'npm');
    const page = await browser.context.newPage();
    await page.setContent(
      '<main><h1>Edgeway</h1><button onclick="this.textContent=\'ok\'">go</button></main>',
    );
    await page.getByRole('button', { name: 'go' }).click();
    assert.equal(await page.getByRole('button').innerText(), 'ok');
    // Text has width only if fontconfig found a font: the bundled ones on a bare machine.
    const width = await page.getByRole('heading').evaluate((h) => h.getBoundingClientRect().width);
    assert.ok(width > 20, `heading is ${width}px wide`);
  } finally {
    await browser.close();
  }
});
