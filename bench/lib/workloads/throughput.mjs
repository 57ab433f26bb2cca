/**
 * Workloads 2 and 3: open-loop runs at fixed rates, then a step search for the
 * highest rate each target sustains (p99 < 1 s, errors < 0.1 %, rate achieved;
 * see rate.mjs). Every run also yields the CPU the OS charged the target's
 * process per request, which is the number that decides cost at scale.
 */
import { openRun, settle, warmUp } from '../measure.mjs';
import { bestLevel, nextLevel, sustained } from '../rate.mjs';
import { chatBody } from '../targets.mjs';

function brief(run) {
  const { latencyMs, ...rest } = run;
  return { ...rest, p50: latencyMs.p50, p99: latencyMs.p99, max: latencyMs.max };
}

export async function fixedRates(
  ctx,
  targets,
  { rates, durationMs, warmupMs, warmupRequests, latencyMs, tokens, mockPid },
) {
  const rows = [];
  for (const t of targets) await warmUp(ctx, t, chatBody(t, { latencyMs, tokens }), warmupRequests);
  for (const rate of rates) {
    for (const t of targets) {
      ctx.log(`  open loop · ${rate}/s · ${t.label}`);
      const extraPids = t.pid !== mockPid ? [mockPid] : [];
      const run = await openRun(ctx, t, chatBody(t, { latencyMs, tokens }), {
        rate,
        durationMs: durationMs + warmupMs,
        warmupMs,
        extraPids,
      });
      rows.push({ target: t.name, ...brief(run), sustained: sustained(run).pass });
      await settle([t.pid, mockPid]);
    }
  }
  return rows;
}

export async function capacitySearch(
  ctx,
  targets,
  { start, factor, precision, maxSteps, max, stepMs, warmupMs, latencyMs, tokens, mockPid },
) {
  const out = {};
  for (const t of targets) {
    const history = [];
    for (
      let rate = nextLevel(history, { start, factor, precision, maxSteps, max });
      rate !== null;
      rate = nextLevel(history, { start, factor, precision, maxSteps, max })
    ) {
      const extraPids = t.pid !== mockPid ? [mockPid] : [];
      const run = await openRun(ctx, t, chatBody(t, { latencyMs, tokens }), {
        rate,
        durationMs: stepMs + warmupMs,
        warmupMs,
        extraPids,
      });
      const verdict = sustained(run);
      ctx.log(
        `  capacity · ${t.label} · ${rate}/s → ${verdict.pass ? 'sustained' : `not sustained (${verdict.reasons.join(', ')})`}`,
      );
      history.push({ level: rate, pass: verdict.pass, reasons: verdict.reasons, ...brief(run) });
      await settle([t.pid, mockPid]);
    }
    out[t.name] = {
      sustainedRps: bestLevel(history),
      capped: history.some((h) => h.level >= max && h.pass),
      history,
    };
  }
  return out;
}
