// The injection detector's tool-result model, cross-validated: generated tool results held out a template
// group at a time, the AgentDojo travel results by near-duplicate group, held to the targets at the shipped
// threshold; the travel results also scored by a model that never saw any of them; and the shipped
// threshold checked against what the training script would choose.
// Needs ../shared/data/injection/indirect-dev.jsonl and dev.jsonl (or INDIRECT_DATA / INJECTION_DATA);
// skips with a message without them.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  DEFAULT_DATA,
  DEFAULT_INDIRECT_DATA,
  GENERATED_TOOLS,
  INDIRECT_TRAINING,
  TOOL_TARGETS,
  TOOL_THRESHOLD,
  benignToolScores,
  chooseToolThreshold,
  crossValidateTools,
  indirectTrainingRows,
  loadIndirectRuntime,
  missedToolTargets,
  readRows,
  readToolRows,
  toolFolds,
  toolMetricsAt,
  turnRates,
} from '../../scripts/guardrails/lib-indirect.mjs';

const INDIRECT = process.env.INDIRECT_DATA ?? DEFAULT_INDIRECT_DATA;
const DIRECT = process.env.INJECTION_DATA ?? DEFAULT_DATA;
const toolRows = readToolRows(INDIRECT);
const directRows = readRows(DIRECT);
const skip =
  toolRows && directRows
    ? false
    : `no injection dev data at ${INDIRECT} / ${DIRECT}: the tool-result CV needs both`;

describe('the tool-result model, cross-validated', { skip }, () => {
  let rows;
  let runtime;
  let cv;
  let shipped;
  before(async () => {
    rows = await indirectTrainingRows(toolRows, directRows, INDIRECT_TRAINING);
    runtime = await loadIndirectRuntime();
    shipped = runtime.decodeModel(runtime.TOOL_MODEL);
    cv = crossValidateTools(runtime, rows, INDIRECT_TRAINING, 'group');
  });

  it('never puts a template group on both sides of a split, and scores every tool result', () => {
    const fold = toolFolds(rows, INDIRECT_TRAINING.folds, INDIRECT_TRAINING.seed, 'group');
    const seen = new Map();
    rows.forEach((row, i) => {
      if (row.source !== GENERATED_TOOLS) return;
      if (!seen.has(row.group)) seen.set(row.group, fold[i]);
      assert.equal(fold[i], seen.get(row.group), `group ${row.group} split across folds`);
    });
    rows.forEach((row, i) => {
      if (row.kind === 'tool') assert.ok(Number.isFinite(cv.scores[i]), `tool row ${i} not scored`);
    });
  });

  it('meets the targets at the shipped threshold', () => {
    const metrics = toolMetricsAt(rows, cv.scores, shipped.threshold);
    const turns = turnRates(benignToolScores(rows, cv.scores), shipped.threshold);
    assert.deepEqual(missedToolTargets(metrics, turns[5]), []);
    assert.ok(metrics.overall.fpr <= TOOL_TARGETS.fpOverall);
  });

  it('holds on the AgentDojo results when it never saw any of them', () => {
    const unseen = toolMetricsAt(rows, cv.unseenDev, shipped.threshold);
    assert.ok(unseen.overall.fpr <= TOOL_TARGETS.fpOverall, `unseen travel FP ${unseen.overall.fpr}`);
    assert.ok(
      unseen.overall.recall >= TOOL_TARGETS.recallOverall,
      `unseen travel recall ${unseen.overall.recall}`,
    );
  });

  it('ships the calibrated default threshold, where the cross-validated false positives first fit the budget', () => {
    assert.equal(shipped.threshold, TOOL_THRESHOLD);
    const chosen = chooseToolThreshold(rows, cv.scores);
    assert.ok(chosen > TOOL_THRESHOLD - 0.05 && chosen <= TOOL_THRESHOLD, `calibrated choice ${chosen}`);
  });
});
