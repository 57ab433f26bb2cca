/**
 * An audit entry's before → after as the fields that changed (pure). A
 * create lists what was set, a delete what was removed (both without empty
 * values: null, {}, [] or ''), an update only the fields whose values differ. `updated_at` is bookkeeping that every update
 * moves, so it is left out. Values are shown as compact JSON, cut to a
 * readable length (the full rows stay in the admin API's answer).
 */

export interface FieldChange {
  field: string;
  /** null: the field did not exist on that side (a create or a delete). */
  before: string | null;
  after: string | null;
}

const MAX_VALUE_CHARS = 160;
const BOOKKEEPING = new Set(['updated_at']);

type Row = Record<string, unknown> | null;

export function showValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
// Rows keep JSON columns as text, so '{}' and '[]' are as empty as {} and [].
const EMPTY = new Set(['', 'null', '{}', '[]']);
const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  EMPTY.has(typeof value === 'string' ? value : JSON.stringify(value));

export function changedFields(before: Row, after: Row): FieldChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const out: FieldChange[] = [];
  for (const field of fields) {
    if (BOOKKEEPING.has(field)) continue;
    const had = before !== null && Object.hasOwn(before, field);
    const has = after !== null && Object.hasOwn(after, field);
    if (had && has && same(before[field], after[field])) continue;
    const only = had ? before?.[field] : after?.[field];
    if (had !== has && isEmpty(only)) continue;
    out.push({
      field,
      before: had && before ? showValue(before[field]) : null,
      after: has && after ? showValue(after[field]) : null,
    });
  }
  return out;
}
