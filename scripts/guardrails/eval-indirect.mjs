#!/usr/bin/env node
/**
 * Cross-validated evaluation of the injection detector's tool-result model.
 *
 *   npm run guardrails:eval-indirect -- --indirect ../shared/data/injection/indirect-dev.jsonl \
 *     --data ../shared/data/injection/dev.jsonl [--folds 5] [--write docs/guardrails/indirect-report.md]
 *
 * Every tool result is scored by a model trained (with the shipped settings) on the other folds: a
 * generated result by one that never saw its domain, a dev result by one that never saw its near-duplicate
 * group. Reports false positives (overall and on results with trigger words) and recall overall, per
 * attack family, per format and per domain at the shipped threshold; the chance that a turn with 1, 5 or
 * 20 benign results is caught; the dev set scored by a model that never saw any dev tool result; the
 * direct model on the same results (what scanned them before); and the threshold table (the curve).
 */
import { writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { cliOptions, fileSha256, loadRuntime, pct, ROOT } from './lib-injection.mjs';
import {
  DEFAULT_INDIRECT_DATA,
  GENERATED_TOOLS,
  INDIRECT_TRAINING,
  TOOL_FP_BUDGET,
  TOOL_TARGETS,
  benignToolScores,
  chooseToolThreshold,
  crossValidateTools,
  indirectTrainingRows,
  loadIndirectRuntime,
  missedToolTargets,
  readRows,
  readToolRows,
  toolMetricsAt,
  turnRates,
} from './lib-indirect.mjs';

const TABLE_THRESHOLDS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];

const options = cliOptions(process.argv.slice(2), {
  write: { type: 'string' },
  indirect: { type: 'string' },
});
const indirectPath = resolve(options.indirect ?? DEFAULT_INDIRECT_DATA);
const toolRows = readToolRows(indirectPath);
const directRows = readRows(options.data);
if (!toolRows || !directRows) {
  console.error(`eval-indirect: needs ${indirectPath} and ${options.data} (pass --indirect and --data)`);
  process.exit(1);
}
const settings = { ...INDIRECT_TRAINING, folds: options.folds };
const rows = await indirectTrainingRows(toolRows, directRows, settings);
const runtime = await loadIndirectRuntime();
const shipped = runtime.decodeModel(runtime.TOOL_MODEL);
const started = Date.now();
const cv = crossValidateTools(runtime, rows, settings, 'group');
const byDomain = crossValidateTools(runtime, rows, settings, 'domain');
const seconds = (Date.now() - started) / 1000;
const threshold = shipped.threshold;
const chosen = chooseToolThreshold(rows, cv.scores);
const m = toolMetricsAt(rows, cv.scores, threshold);
const turns = turnRates(benignToolScores(rows, cv.scores), threshold);
const unseen = toolMetricsAt(rows, cv.unseenDev, threshold);
const domainM = toolMetricsAt(rows, byDomain.scores, threshold);
const domainTurns = turnRates(benignToolScores(rows, byDomain.scores), threshold);

// The direct model, as tool results were judged before: the whole raw text, its threshold.
const direct = await loadRuntime();
const directModel = direct.decodeModel(direct.SERIALISED_MODEL);
const before = rows.map((row) =>
  row.kind === 'tool' ? direct.scoreText(directModel, row.text) : Number.NaN,
);
const beforeM = toolMetricsAt(rows, before, directModel.threshold);
const beforeTurns = turnRates(benignToolScores(rows, before), directModel.threshold);

const tools = rows.filter((r) => r.kind === 'tool');
const generated = tools.filter((r) => r.source === GENERATED_TOOLS);
const count = (xs, key) => new Set(xs.map((x) => x[key])).size;

function auc(scores) {
  const pos = [];
  const neg = [];
  rows.forEach((row, i) => {
    if (row.kind !== 'tool' || !Number.isFinite(scores[i])) return;
    (row.label === 'injection' ? pos : neg).push(scores[i]);
  });
  let sum = 0;
  for (const p of pos) for (const n of neg) sum += p > n ? 1 : p === n ? 0.5 : 0;
  return (sum / (pos.length * neg.length)).toFixed(3);
}

function table(metrics, key, { fp = true, recall = true } = {}) {
  const head = [key, 'n', ...(fp ? ['false positives', 'FP rate'] : []), ...(recall ? ['recall'] : [])];
  const lines = [
    `| ${head.join(' | ')} |`,
    `| --- | ${head
      .slice(1)
      .map(() => '---:')
      .join(' | ')} |`,
  ];
  for (const [name, x] of Object.entries(metrics[key])) {
    const cells = [name, x.n];
    if (fp) cells.push(x.fp + x.tn > 0 ? x.fp : '–', pct(x.fpr));
    if (recall) cells.push(pct(x.recall));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

function summary(label, x, hard, turn) {
  return `| ${label} | ${pct(x.fpr)} (${x.fp} of ${x.fp + x.tn}) | ${pct(hard.fpr)} (${hard.fp} of ${hard.fp + hard.tn}) | ${pct(x.recall)} (${x.tp} of ${x.tp + x.fn}) | ${turn ? `${pct(turn[1])} / ${pct(turn[5])} / ${pct(turn[20])}` : '–'} |`;
}

function curve() {
  const families = Object.keys(m.family).filter((f) => f !== '(benign)');
  const head = ['threshold', 'FP all', 'FP trigger words', 'recall all', '5-result turns', ...families];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---:').join(' | ')} |`];
  const benign = benignToolScores(rows, cv.scores);
  for (const t of [...new Set([...TABLE_THRESHOLDS, threshold, chosen])].sort((a, b) => a - b)) {
    const x = toolMetricsAt(rows, cv.scores, t);
    const cells = [t === threshold ? `**${t}** (default)` : String(t)];
    cells.push(pct(x.overall.fpr), pct(x.hardNegative.fpr), pct(x.overall.recall));
    cells.push(pct(turnRates(benign, t, [5], 10_000)[5]));
    for (const f of families) cells.push(pct(x.family[f]?.recall));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

const missed = missedToolTargets(m, turns[5]);
const report = `# Prompt-injection detector, tool results: cross-validated evaluation

Generated by \`npm run guardrails:eval-indirect\` (scripts/guardrails/eval-indirect.mjs). Do not edit by hand.

- Tool results: \`${relative(ROOT, indirectPath)}\`, ${toolRows.length} rows (AgentDojo's travel suite), sha256
  \`${fileSha256(indirectPath)}\`; and ${generated.length} generated ones (\`scripts/guardrails/tool-outputs.mjs\`,
  ${count(generated, 'domain')} domains, ${count(
    generated.filter((r) => r.label === 'injection'),
    'family',
  )} attack families, half with an injected
  instruction, each beside its benign twin). Prompts: \`${relative(ROOT, options.data)}\`, ${directRows.length} rows,
  sha256 \`${fileSha256(options.data)}\`, and the generated ordinary prompts; they train every fold and are not scored here
  (the direct path has its own report, [injection-report.md](injection-report.md)).
- ${settings.folds}-fold cross-validation. Generated results are held out a template group at a time, so each is
  scored by a model that never saw its template, its records or its injected wording (it saw other results of
  its domain); dev results by near-duplicate group. A second run holds out whole domains (below). Every result is
  scored by the runtime scorer (prose extraction, sentence windows, quantised weights). Both runs took
  ${seconds.toFixed(0)} s.
- ${rows.filter((r) => r.quotesAttack).length} generated benign results quote an attack verbatim (a security post, a test file, a post-mortem citing
  the line that fooled an assistant). They are left out of training and of the false-positive figures, since
  flagging the attack's own words is no mistake; they fire ${pct(m.quoting.fpr)} of the time at the default threshold.
- Default threshold (shipped): **${threshold}**. Scores are calibrated so that it sits where the cross-validated false
  positives first fit the budget (≤ ${pct(TOOL_FP_BUDGET.overall)} overall, ≤ ${pct(TOOL_FP_BUDGET.hardNegative)} on results with trigger words,
  5-result turns caught ≤ ${pct(TOOL_FP_BUDGET.turn5)}: half the false-positive targets, four fifths of the turn target); this run's calibration would choose **${chosen}** on
  the shipped scale (offset ${cv.offset}). AUC ${auc(cv.scores)} (the direct model on the same
  results: ${auc(before)}).

## At the default threshold (cross-validated), and before

| model | FP, benign results | FP, trigger-word results | recall, injected results | turns with 1 / 5 / 20 benign results caught |
| --- | ---: | ---: | ---: | ---: |
${summary(`tool-result model at ${threshold} (cross-validated)`, m.overall, m.hardNegative, turns)}
${summary(`direct model at ${directModel.threshold} (how tool results were judged before)`, beforeM.overall, beforeM.hardNegative, beforeTurns)}

A turn is caught when at least one of its results reaches the threshold (it is then quarantined or the turn
blocked, by policy): turns are drawn from the benign results' cross-validated scores, 20,000 per N.

Targets: false positives ≤ ${pct(TOOL_TARGETS.fpOverall)} overall and ≤ ${pct(TOOL_TARGETS.fpHardNegative)} on results with trigger words; recall ≥
${pct(TOOL_TARGETS.recallOverall)}, every family ≥ ${pct(TOOL_TARGETS.recallPerFamily)}; 5-result turns caught ≤ ${pct(TOOL_TARGETS.turn5)}.
**${missed.length === 0 ? 'All targets met.' : `Missed: ${missed.join('; ')}.`}**

### Per attack family

${table(m, 'family', { fp: false })}

### Per format

${table(m, 'format')}

### Per domain (template groups held out)

${table(m, 'domain')}

## A domain never seen

The same cross-validation with whole domains held out: each generated result scored by a model that never saw a
result of its kind at all (no e-mail for an e-mail, no chat for a chat message). A stress figure: the shipped
model has seen every domain here, and the held-out evaluation's e-mails, files, calendars, chats, transactions
and web pages are kinds it knows. At ${threshold}: FP ${pct(domainM.overall.fpr)}, trigger-word FP ${pct(domainM.hardNegative.fpr)}, recall
${pct(domainM.overall.recall)}, 5-result turns caught ${pct(domainTurns[5])}.

${table(domainM, 'domain')}

## The dev set, never seen

The ${toolRows.length} AgentDojo travel results scored by a model trained on everything else (generated results and
prompts) and none of them: the closest this report has to results from a real agent suite it never saw.
At ${threshold}: FP ${pct(unseen.overall.fpr)}, trigger-word FP ${pct(unseen.hardNegative.fpr)}, recall ${pct(unseen.overall.recall)}.

${table(unseen, 'family', { fp: false })}

## Threshold table (cross-validated; recall per family)

${curve()}
`;

console.log(report);
console.error(`cross-validation took ${seconds.toFixed(1)} s`);
if (options.write) {
  writeFileSync(resolve(options.write), report);
  console.error(`wrote ${options.write}`);
}
