// The prompt-injection detector's cross-validated accuracy on the dev set and on generated ordinary prompts
// held out by template family, held to the targets, and the shipped model's default threshold checked
// against what the training script would choose.
// Needs ../shared/data/injection/dev.jsonl (or INJECTION_DATA); skips with a message without it.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  DEFAULT_DATA,
  ORDINARY,
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
  trainingRows,
} from '../../scripts/guardrails/lib-injection.mjs';

const DATA = process.env.INJECTION_DATA ?? DEFAULT_DATA;
const devRows = readRows(DATA);
const rows = devRows && trainingRows(devRows, TRAINING);
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

  it('keeps ordinary prompts from templates it never saw under 1 % false positives', () => {
    const ordinary = metricsAt(rows, cv.scores, shipped.threshold).sources[ORDINARY];
    assert.ok(ordinary.fp + ordinary.tn > 2000, `only ${ordinary.fp + ordinary.tn} ordinary prompts`);
    assert.ok(ordinary.fpr <= TARGETS.fpPerSource[ORDINARY], `ordinary-prompt FP ${ordinary.fpr}`);
  });

  it('keeps false positives and recalls within the targets at the shipped threshold', () => {
    const metrics = metricsAt(rows, cv.scores, shipped.threshold);
    assert.ok(metrics.overall.fpr <= TARGETS.fpOverall, `FP overall ${metrics.overall.fpr}`);
    assert.deepEqual(missedTargets(metrics), []);
    const deepset = metrics.sources['deepset/prompt-injections'];
    assert.ok(
      deepset.recall >= TARGETS.recall['deepset/prompt-injections'],
      `deepset recall ${deepset.recall}`,
    );
  });

  it('ships the threshold the training script chooses from the cross-validated scores', () => {
    assert.equal(shipped.threshold, chooseThreshold(rows, cv.scores));
  });
});
