// Unit tests for the guardrail micro-benchmark's report: the tool-result budget line, the bundle table and
// what the tool-result path adds, and results saved before those figures existed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOOL_RESULT_P99_BUDGET_US, microTable } from '../guardrails-micro.mjs';

const row = (name, p99, cpuP99) => ({
  name,
  p50: 100,
  p99,
  max: p99 * 2,
  cpuMean: 110,
  ...(cpuP99 === undefined ? {} : { cpuP99 }),
  bytes: 1000,
  gzipBytes: 500,
});

test('the tool-result rows are held to the budget, wall-clock and CPU, worst format first', () => {
  const table = microTable({
    inputs: 'x',
    rows: [
      row('injection score, 1,000-token prompt', 9_000, 300),
      row('injection tool-result score, 1,000-token json result', 450, 200),
      row('injection tool-result score, 1,000-token yaml result', 4_000, 420),
    ],
    toolResultChars: { json: 3_900, yaml: 3_950 },
  });
  assert.equal(TOOL_RESULT_P99_BUDGET_US, 500);
  assert.match(
    table,
    /p99 4000\.0 µs wall-clock \(over the 500 µs budget\), p99 420\.0 µs of CPU \(within; on a busy host/,
  );
  assert.match(table, /json 3900, yaml 3950 characters/);
  assert.match(
    table,
    /\| injection tool-result score, 1,000-token yaml result \| 100\.0 \| 4000\.0 \| 8000\.0 \| 110\.0 \| 420\.0 \|/,
  );
});

test('the bundle table says what the tool-result path adds to the direct detector', () => {
  const table = microTable({
    inputs: 'x',
    rows: [],
    bundles: [
      { name: 'model', entries: ['src/guardrails/injection/tool-model.ts'], bytes: 900, gzipBytes: 700 },
      { name: 'direct', entries: ['src/guardrails/injection/index.ts'], bytes: 1_000, gzipBytes: 800 },
      {
        name: 'both',
        entries: ['src/guardrails/injection/index.ts', 'src/guardrails/injection/tool-results.ts'],
        bytes: 1_950,
        gzipBytes: 1_520,
      },
    ],
  });
  assert.match(table, /\| both \| 1950 \| 1520 \|/);
  assert.match(table, /adds 950 bytes \(720 gzipped\)/);
});

test('a result saved before the tool-result figures still renders', () => {
  const table = microTable({ inputs: 'x', rows: [row('injection score, 1,000-token prompt', 900)] });
  assert.match(table, /\| 110\.0 \| – \| 1000 \| 500 \|/);
  assert.doesNotMatch(table, /budget|bundle \|/);
});
