// The generated tool results (scripts/guardrails/tool-outputs.mjs): deterministic, every domain in every
// format it declares, both labels and every attack family, hard negatives for a third of benign rows, each
// injected row carrying its span and its benign twin not, and no text copied from the project's dev sets.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DOMAINS, FAMILIES, SOURCE, toolOutputs } from '../../scripts/guardrails/tool-outputs.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const DATA = join(ROOT, '../shared/data/injection');
const rows = toolOutputs({ seed: 7, count: 4000 });

describe('generated tool outputs', () => {
  it('are the same for the same seed and differ for another', () => {
    const a = toolOutputs({ seed: 3, count: 60 });
    assert.deepEqual(toolOutputs({ seed: 3, count: 60 }), a);
    assert.notDeepEqual(toolOutputs({ seed: 4, count: 60 }), a);
    assert.equal(a.length, 60);
  });

  it('produce every domain in every format it declares', () => {
    const seen = new Set(rows.map((r) => `${r.domain} ${r.format}`));
    for (const d of DOMAINS)
      for (const f of d.formats) assert.ok(seen.has(`${d.name} ${f}`), `${d.name} ${f}`);
    for (const r of rows)
      assert.ok(DOMAINS.find((d) => d.name === r.domain).formats.includes(r.format), r.format);
  });

  it('have both labels, every family, and hard negatives for at least a third of benign rows', () => {
    const benign = rows.filter((r) => r.label === 'benign');
    const injected = rows.filter((r) => r.label === 'injection');
    assert.equal(benign.length, injected.length);
    for (const family of Object.keys(FAMILIES)) {
      assert.ok(injected.filter((r) => r.family === family).length >= 20, family);
    }
    const hard = benign.filter((r) => r.hard_negative).length / benign.length;
    assert.ok(hard >= 1 / 3 && hard <= 0.5, `hard-negative share ${hard}`);
    for (const d of DOMAINS) {
      const own = benign.filter((r) => r.domain === d.name);
      assert.ok(
        own.filter((r) => r.hard_negative).length >= own.length / 5,
        `${d.name} has too few hard negatives`,
      );
    }
    for (const r of rows) assert.equal(r.source, SOURCE);
  });

  it('pair each injected row with a benign twin of the same group that lacks the injection', () => {
    for (let i = 0; i < rows.length; i += 2) {
      const [benign, injected] = [rows[i], rows[i + 1]];
      assert.equal(benign.label, 'benign');
      assert.equal(injected.label, 'injection');
      assert.equal(benign.group, injected.group);
      assert.equal(benign.injection, null);
      assert.ok(injected.injection.trim().length > 10);
      assert.ok(injected.text.includes(injected.injection), injected.group);
      assert.ok(!benign.text.includes(injected.injection.trim()), injected.group);
    }
  });

  it('keep texts between 50 and about 8,000 characters', () => {
    for (const r of rows)
      assert.ok(r.text.length >= 50 && r.text.length <= 10_000, `${r.group} ${r.text.length}`);
  });

  it('copy no text from the dev sets', (t) => {
    const files = ['indirect-dev.jsonl', 'dev.jsonl'].map((f) => join(DATA, f)).filter(existsSync);
    if (files.length === 0) {
      t.skip(`no dev sets at ${DATA}`);
      return;
    }
    // Rows under 25 characters ("Hello, how are you?") can occur by chance inside any text.
    const dev = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).text)
        .filter((text) => text.trim().length >= 25),
    );
    for (const r of rows)
      for (const d of dev) assert.ok(!r.text.includes(d), `${r.group} contains a dev row`);
  });
});
