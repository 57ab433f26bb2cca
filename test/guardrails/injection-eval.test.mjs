// The prompt-injection detector's cross-validated accuracy on the dev set, held to the targets, and the
// shipped model's default threshold checked against what the training script would choose.
// Needs ../shared/data/injection/dev.jsonl (or INJECTION_DATA); skips with a message without it.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  DEFAULT_DATA,
  TARGETS,
  TRAINING,
  assignFolds,
  chooseThreshold,
  crossValidate,
  loadRuntime,
  metricsAt,
  missedTargets,
  nearDuplicateGroups,
  readRows,
} from '../../scripts/guardrails/lib-injection.mjs';

const DATA = process.env.INJECTION_DATA ?? DEFAULT_DATA;
const rows = readRows(DATA);
const skip = rows ? false : `no injection dev data at ${DATA}: the cross-validation test needs it`;

describe('the injection detector, cross-validated on the dev set', { skip }, () => {
  let runtime;
  let cv;
  let shipped;
  before(async () => {
    runtime = await loadRuntime();
    shipped = runtime.decodeModel(runtime.SERIALISED_MODEL);
    cv = crossValidate(runtime, rows, TRAINING);
  });

  it('never splits a near-duplicate group across folds', () => {
    const groups = nearDuplicateGroups(rows);
    const { fold } = assignFolds(rows, TRAINING.folds);
    const foldOfGroup = new Map();
    rows.forEach((_, i) => {
      const seen = foldOfGroup.get(groups[i]);
      if (seen === undefined) foldOfGroup.set(groups[i], fold[i]);
      else assert.equal(fold[i], seen, `row ${i} left its near-duplicate group's fold`);
    });
  });

  it('keeps false positives and recalls within the targets at the shipped threshold', () => {
    const metrics = metricsAt(rows, cv.scores, shipped.threshold);
    assert.ok(metrics.overall.fpr <= TARGETS.fpOverall, `FP overall ${metrics.overall.fpr}`);
    assert.deepEqual(missedTargets(metrics), []);
  });

  it('ships the threshold the training script chooses from the cross-validated scores', () => {
    assert.equal(shipped.threshold, chooseThreshold(rows, cv.scores));
  });
});
