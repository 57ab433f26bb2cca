/**
 * Verdicts as a request collects them (pure): one per guardrail and
 * direction, counting values per kind, and the x-edgeway-guardrails header
 * that names what fired (`log` is recorded but not named: it is silent).
 */
import type { Action, Direction, Guardrail } from '../core/guardrail-policy';
import type { LogGuardrail } from '../core/log-event';

export type FiringAction = Exclude<Action, 'off'>;

/** Adds one finding to the verdict of `guardrail` in `direction`, creating it on first use. */
export function tally(
  verdicts: LogGuardrail[],
  guardrail: Guardrail,
  direction: Direction,
  action: FiringAction,
  kind: string,
  count = 1,
): LogGuardrail {
  let verdict = verdicts.find((v) => v.guardrail === guardrail && v.direction === direction);
  if (!verdict) {
    verdict = { guardrail, direction, action, count: 0, kinds: {}, score: null, error: null };
    verdicts.push(verdict);
  }
  verdict.count += count;
  verdict.kinds[kind] = (verdict.kinds[kind] ?? 0) + count;
  return verdict;
}

/**
 * What fired, as `guardrail:direction:action:count` items joined by ", " (e.g.
 * `pii:request:redact:2, injection:request:block:1`); null when nothing fired
 * above `log`.
 */
export function guardrailsHeader(verdicts: readonly LogGuardrail[]): string | null {
  const named = verdicts.filter((v) => v.action !== 'log');
  if (named.length === 0) return null;
  return named.map((v) => `${v.guardrail}:${v.direction}:${v.action}:${v.count}`).join(', ');
}
