/**
 * A route's spec ⇄ the route form (pure). As in forms.ts, nothing is checked
 * here: what does not look like a number goes through as typed, and the admin
 * API names the field it refuses. Field names are the API's parameter paths
 * (`spec.strategy`, `spec.targets.1.model`, `spec.targets.1.overrides.top_p`),
 * so a refusal's `param` marks its input.
 *
 * Targets are rows `spec.targets.N.*`. Rows are added without JavaScript by
 * blank rows (a row without a model is left out) and a "more rows" button
 * that re-renders the form with `rows` raised; one is removed by its "remove"
 * box or by clearing its model. Rows are renumbered in the order they were
 * submitted, so the API's `spec.targets.N` is the Nth kept row.
 *
 * Round trip: what the form does not show travels in hidden `keep` fields as
 * JSON — a nested group as a whole row, and any field of a target or of the
 * spec that the form has no input for — so saving the form changes only what
 * the admin edited.
 */
import { isGroup, type RouteSpec, type RouteStep } from '../core/route-spec';
import { type FormValues, numberish } from './forms';

/** The target fields the form shows, besides the model (and the overrides). */
export const TARGET_NUMBERS = ['weight', 'ttfb_timeout_ms', 'attempts'] as const;
export const OVERRIDE_FIELDS = ['max_tokens', 'temperature', 'top_p'] as const;
export const SPEC_NUMBERS = ['attempts', 'max_calls'] as const;
const TARGET_SHOWN = new Set<string>(['model', 'credential', 'overrides', ...TARGET_NUMBERS]);
const SPEC_SHOWN = new Set<string>(['strategy', 'targets', 'on_unsupported', ...SPEC_NUMBERS]);
/** Blank rows below the targets, and how many more the "more rows" button adds. */
export const BLANK_ROWS = 2;
export const MORE_ROWS = 3;
/** The most rows the form renders (the API allows MAX_GROUP_TARGETS a group; more are refused there). */
export const MAX_ROWS = 24;

export const target = (i: number, field: string) => `spec.targets.${i}.${field}`;

type Json = Record<string, unknown>;

/** The fields of `obj` not in `shown`, as JSON; '' when there are none. */
function kept(obj: object, shown: ReadonlySet<string>): string {
  const rest = Object.fromEntries(Object.entries(obj).filter(([k]) => !shown.has(k)));
  return Object.keys(rest).length ? JSON.stringify(rest) : '';
}

/** A stored spec as the form's values (rows: how many target rows to render). */
export function routeFormValues(spec: RouteSpec): FormValues {
  const out: FormValues = {
    'spec.strategy': spec.strategy,
    'spec.on_unsupported': spec.on_unsupported ?? '',
  };
  for (const k of SPEC_NUMBERS) if (spec[k] !== undefined) out[`spec.${k}`] = String(spec[k]);
  const keep = kept(spec, SPEC_SHOWN);
  if (keep) out['spec.keep'] = keep;
  spec.targets.forEach((step: RouteStep, i) => {
    if (isGroup(step)) {
      out[target(i, 'keep')] = JSON.stringify(step);
      return;
    }
    out[target(i, 'model')] = step.model;
    out[target(i, 'credential')] = step.credential;
    for (const k of TARGET_NUMBERS) if (step[k] !== undefined) out[target(i, k)] = String(step[k]);
    for (const k of OVERRIDE_FIELDS)
      if (step.overrides?.[k] !== undefined) out[target(i, `overrides.${k}`)] = String(step.overrides[k]);
    const rest = kept(step, TARGET_SHOWN);
    if (rest) out[target(i, 'keep')] = rest;
  });
  out.rows = String(spec.targets.length + BLANK_ROWS);
  return out;
}

/** How many target rows the form shows for these values (at least every submitted row, plus blanks). */
export function rowCount(values: FormValues): number {
  let highest = -1;
  for (const k of Object.keys(values)) {
    const m = /^spec\.targets\.(\d+)\./.exec(k);
    if (m) highest = Math.max(highest, Number(m[1]));
  }
  const asked = Number(values.rows);
  const rows = Number.isInteger(asked) && asked > 0 ? asked : highest + 1 + BLANK_ROWS;
  return Math.min(MAX_ROWS, Math.max(rows, highest + 1, 1));
}

/** Text typed in a hidden JSON field: the object it holds, or null (nothing to keep, or it was tampered with). */
function parsedKeep(text: string | undefined): Json | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
  } catch {
    return null;
  }
}

function numbers(values: FormValues, prefix: string, keys: readonly string[]): Json {
  const out: Json = {};
  for (const k of keys) {
    const v = numberish(values[`${prefix}${k}`]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** One row as a target (or the group it keeps), or null when the row is blank or marked removed. */
function rowTarget(values: FormValues, i: number): Json | null {
  if (values[target(i, 'remove')] === 'on') return null;
  const keep = parsedKeep(values[target(i, 'keep')]);
  const model = values[target(i, 'model')]?.trim() ?? '';
  if (keep && 'strategy' in keep) return keep;
  if (model === '') return null;
  const t: Json = { ...keep, model, ...numbers(values, `spec.targets.${i}.`, TARGET_NUMBERS) };
  const credential = values[target(i, 'credential')];
  if (credential && credential !== 'auto') t.credential = credential;
  const overrides = numbers(values, `spec.targets.${i}.overrides.`, OVERRIDE_FIELDS);
  if (Object.keys(overrides).length) t.overrides = overrides;
  return t;
}

/** The form's values as a RouteSpec body for the admin API (which judges it). */
export function specFromForm(values: FormValues): Json {
  const targets: Json[] = [];
  for (let i = 0; i < rowCount(values); i++) {
    const t = rowTarget(values, i);
    if (t) targets.push(t);
  }
  const spec: Json = {
    ...parsedKeep(values['spec.keep']),
    strategy: values['spec.strategy'] ?? 'fallback',
    targets,
    ...numbers(values, 'spec.', SPEC_NUMBERS),
  };
  const onUnsupported = values['spec.on_unsupported'];
  if (onUnsupported) spec.on_unsupported = onUnsupported;
  return spec;
}

/**
 * The values to render after a submission: renumbered so the kept rows come first, in order (the API's
 * `spec.targets.N` then names the row the admin sees as target N+1), and `extra` more blank rows.
 */
export function resubmitted(values: FormValues, extra: number): FormValues {
  const out: FormValues = {};
  for (const [k, v] of Object.entries(values)) if (!k.startsWith('spec.targets.')) out[k] = v;
  let next = 0;
  for (let i = 0; i < rowCount(values); i++) {
    const prefix = `spec.targets.${i}.`;
    const row = Object.entries(values).filter(([k]) => k.startsWith(prefix));
    const blank = rowTarget(values, i) === null;
    if (blank) continue;
    for (const [k, v] of row)
      if (!k.endsWith('.remove')) out[`spec.targets.${next}.${k.slice(prefix.length)}`] = v;
    next++;
  }
  out.rows = String(Math.min(MAX_ROWS, next + BLANK_ROWS + extra));
  return out;
}

/** A refused field in words, e.g. `spec.targets.1.model` → "Target 2: model"; null for a field the form lacks. */
export function fieldLabel(param: string | null | undefined): string | null {
  if (!param) return null;
  const row = /^spec\.targets\.(\d+)(?:\.(.+))?$/.exec(param);
  if (row) return `Target ${Number(row[1]) + 1}${row[2] ? `: ${row[2].replaceAll('.', ' ')}` : ''}`;
  const spec = /^spec\.(strategy|attempts|max_calls|on_unsupported)$/.exec(param);
  if (spec) return `Route settings: ${spec[1]}`;
  if (param === 'name') return 'Route name';
  if (param === 'tenant_id') return 'Scope';
  return null;
}
