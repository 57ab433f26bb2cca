/**
 * Verdicts as a request collects them (pure): one per guardrail and side,
 * counting values per kind, and the x-edgeway-guardrails header that names
 * what fired (`log` is recorded but not named: it is silent). A verdict on the
 * request's tool results (side `tool`) also names each result it fired on.
 */
import type { Action, Direction, Guardrail } from '../core/guardrail-policy';
import type { LogGuardrail } from '../core/log-event';

export type FiringAction = Exclude<Action, 'off'>;
/** Where a verdict was reached: the request (its user turns), the answer, or the request's tool results. */
export type VerdictSide = Direction | 'tool';

/** Adds one finding to the verdict of `guardrail` on `side`, creating it on first use. */
export function tally(
  verdicts: LogGuardrail[],
  guardrail: Guardrail,
  side: VerdictSide,
  action: FiringAction,
  kind: string,
  count = 1,
): LogGuardrail {
  let verdict = verdicts.find((v) => v.guardrail === guardrail && v.direction === side);
  if (!verdict) {
    verdict = { guardrail, direction: side, action, count: 0, kinds: {}, score: null, error: null };
    verdicts.push(verdict);
  }
  verdict.count += count;
  verdict.kinds[kind] = (verdict.kinds[kind] ?? 0) + count;
  return verdict;
}

/** Tool results listed by name in one header item; the rest are counted (`;+N`). */
export const HEADER_MAX_RESULTS = 8;
/** Longest tool call id in the header, after sanitising. */
export const HEADER_ID_MAX = 64;

/**
 * A client's tool call id as the header can carry it: only [A-Za-z0-9_.-] (anything else becomes `_`), at
 * most HEADER_ID_MAX characters; a result without an id is named by its index (`#2`).
 */
export function headerId(id: string | null, index: number): string {
  if (id === null) return `#${index}`;
  return id.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, HEADER_ID_MAX);
}

function item(v: LogGuardrail): string {
  const head = `${v.guardrail}:${v.direction}:${v.action}:${v.count}`;
  if (!v.results) return head;
  const named = v.results.slice(0, HEADER_MAX_RESULTS);
  const listed = named.map((r) => `;${headerId(r.id, r.index)}=${r.score.toFixed(4)}`).join('');
  const more = v.count - named.length;
  return `${head}${listed}${more > 0 ? `;+${more}` : ''}`;
}

/**
 * What fired, as `guardrail:side:action:count` items joined by ", " (e.g.
 * `pii:request:redact:2, injection:request:block:1`); tool results add each
 * result fired on (`injection:tool:quarantine:2;call_a=0.9731;call_b=0.8812`,
 * at most HEADER_MAX_RESULTS, then `;+N`); null when nothing fired above `log`.
 */
export function guardrailsHeader(verdicts: readonly LogGuardrail[]): string | null {
  const named = verdicts.filter((v) => v.action !== 'log');
  if (named.length === 0) return null;
  return named.map(item).join(', ');
}
