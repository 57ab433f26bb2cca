/**
 * HTML forms ⇄ admin API bodies (pure). The conversion is deliberately not a
 * second validator: a field that does not look like what the API expects is
 * passed through as typed, so the API's own zod schema rejects it and its
 * message (naming the field, e.g. `limits.rpm`) is what the admin reads.
 * Field names are the API's parameter paths, so an error's `param` points at
 * its input. Times in forms are UTC (`YYYY-MM-DDTHH:MM`), labelled as such.
 */
import type { ApiKey } from '../storage/entities';

export type FormValues = Record<string, string>;

export const LIMIT_FIELDS = ['rpm', 'tpm', 'concurrent', 'max_tokens'] as const;
export const BUDGET_UNITS = ['tokens', 'usd', 'requests'] as const;
export const BUDGET_PERIODS = ['day', 'month', 'total'] as const;

/** Keeps the string fields of a parsed form body (files are ignored). */
export function formValues(body: Record<string, unknown>): FormValues {
  const out: FormValues = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** A number when the text is one, nothing when blank, else the text itself (for the API to refuse). */
export function numberish(raw: string | undefined): number | string | undefined {
  const text = raw?.trim() ?? '';
  if (text === '') return undefined;
  return /^-?\d+(\.\d+)?(e\d+)?$/i.test(text) ? Number(text) : text;
}

/** `YYYY-MM-DDTHH:MM[:SS]` read as UTC; anything else passes through for the API to refuse. */
export function utcInputToMs(raw: string | undefined): number | string | null {
  const text = raw?.trim() ?? '';
  if (text === '') return null;
  const t = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text) ? Date.parse(`${text}Z`) : Number.NaN;
  return Number.isFinite(t) ? t : text;
}

export function msToUtcInput(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString().slice(0, 16);
}

/** A UTC form time as the ISO string the logs API takes; other text passes through. */
export function utcInputToIso(raw: string | undefined): string | undefined {
  const text = raw?.trim() ?? '';
  if (text === '') return undefined;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text) ? `${text}Z` : text;
}

function pick<K extends string>(
  values: FormValues,
  prefix: string,
  keys: readonly K[],
): Partial<Record<K, number | string>> {
  const out: Partial<Record<K, number | string>> = {};
  for (const k of keys) {
    const v = numberish(values[`${prefix}.${k}`]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** The settings a key form edits, as a KeyCreate/KeyUpdate body (each field replaced whole on update). */
export function keyBody(values: FormValues): Record<string, unknown> {
  const models = (values.models ?? '').split(/[\s,]+/).filter(Boolean);
  const origins = (values.origins ?? '').split(/[\s,]+/).filter(Boolean);
  const budgets: Record<string, unknown> = {};
  for (const unit of BUDGET_UNITS) {
    const window = pick(values, `budgets.${unit}`, BUDGET_PERIODS);
    if (Object.keys(window).length) budgets[unit] = window;
  }
  return {
    name: values.name?.trim() ?? '',
    models: models.length ? models : null,
    origins,
    limits: pick(values, 'limits', LIMIT_FIELDS),
    budgets,
    expires_at: utcInputToMs(values.expires_at),
    log_payload: values.log_payload === 'on',
    ...(values.on_unsupported === undefined ? {} : { on_unsupported: values.on_unsupported }),
  };
}

/** The rotate body: grace in seconds, blank meaning none. */
export function rotateBody(values: FormValues): Record<string, unknown> {
  const grace = numberish(values.grace_seconds);
  return grace === undefined ? {} : { grace_seconds: grace };
}

export type KeySettings = Pick<
  ApiKey,
  'name' | 'models' | 'origins' | 'limits' | 'budgets' | 'expires_at' | 'log_payload' | 'on_unsupported'
>;

/** A stored key as the values of its edit form. */
export function keyFormValues(key: KeySettings): FormValues {
  const out: FormValues = {
    name: key.name,
    models: (key.models ?? []).join('\n'),
    origins: key.origins.join('\n'),
    expires_at: msToUtcInput(key.expires_at),
    on_unsupported: key.on_unsupported,
  };
  for (const k of LIMIT_FIELDS) if (key.limits[k] !== undefined) out[`limits.${k}`] = String(key.limits[k]);
  for (const unit of BUDGET_UNITS) {
    for (const p of BUDGET_PERIODS) {
      const v = key.budgets[unit]?.[p];
      if (v !== undefined) out[`budgets.${unit}.${p}`] = String(v);
    }
  }
  if (key.log_payload) out.log_payload = 'on';
  return out;
}
