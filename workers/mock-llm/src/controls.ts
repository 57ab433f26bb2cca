/**
 * The `mock` body field: fault and latency controls that travel inside the
 * request so they survive a gateway that drops client headers. Parsing is pure
 * and strict: an unknown control or a wrong type is a 400 naming it, because a
 * silently ignored typo would make a fault test pass for the wrong reason.
 */

export interface Controls {
  /** Delay before the response headers (time to first byte). */
  readonly latency_ms: number;
  /** Generated tokens for non-echo models. */
  readonly tokens: number;
  /** Delay between stream events. */
  readonly pace_ms: number;
  /** Fail with this HTTP status (always, or only for the first `fail_first` requests of `key`). */
  readonly status?: number;
  readonly fail_first?: number;
  readonly key?: string;
  /** Stream faults, each "after N token chunks". */
  readonly cut_after?: number;
  readonly reset_after?: number;
  readonly stall_after?: number;
  readonly stall_ms: number;
  readonly malformed_after?: number;
  /** Answer with a call to the first tool, when the request has tools. */
  readonly tool_call: boolean;
  /** Answer with a call to the tool of this name, when the request offers it. */
  readonly tool_name?: string;
  /** The minimum prompt (in tokens) that prompt caching considers; default 1024, as the providers. */
  readonly cache_min_tokens?: number;
  /** With thinking on: add a redacted thinking block (Anthropic, Bedrock) after the thinking. */
  readonly redacted_thinking?: boolean;
  /** Echo models: stream the text in pieces of this many characters instead of word by word. */
  readonly chunk_chars?: number;
  /** Misbehaving-upstream faults (src/body-faults.ts, src/schedule.ts): sizes in bytes. */
  readonly huge_event_bytes?: number;
  readonly unterminated_bytes?: number;
  readonly error_body_bytes?: number;
  /** The injected error's message; `{key}` becomes the credential the request presented. */
  readonly error_message?: string;
  readonly body_cut_bytes?: number;
  readonly body_reset_bytes?: number;
  readonly body_stall_after?: number;
  /** With body_stall_after: declare the answer's content-length, as a provider's JSON answer does. */
  readonly body_declared?: boolean;
}

export type ControlsResult =
  | { readonly ok: true; readonly controls: Controls }
  | { readonly ok: false; readonly param: string; readonly message: string };

export const DEFAULT_CONTROLS: Controls = {
  latency_ms: 0,
  tokens: 16,
  pace_ms: 0,
  stall_ms: 30_000,
  tool_call: false,
};

/** Status used by `fail_first` when no `status` is given. */
export const DEFAULT_FAIL_STATUS = 500;

type Spec =
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  | { readonly kind: 'bool' }
  | { readonly kind: 'string'; readonly maxLength: number };

const COUNT: Spec = { kind: 'int', min: 0, max: 1_000_000 };
const MILLIS: Spec = { kind: 'int', min: 0, max: 120_000 };
/** Up to 64 MiB: enough to reproduce an upstream that freezes a gateway. */
const BYTES: Spec = { kind: 'int', min: 0, max: 64 * 1024 * 1024 };

/** Every accepted control with its type and range; the README documents the same table. */
export const CONTROL_SPECS: Readonly<Record<keyof Controls, Spec>> = {
  latency_ms: MILLIS,
  tokens: { kind: 'int', min: 0, max: 100_000 },
  pace_ms: { kind: 'int', min: 0, max: 60_000 },
  status: { kind: 'int', min: 400, max: 599 },
  fail_first: COUNT,
  key: { kind: 'string', maxLength: 256 },
  cut_after: COUNT,
  reset_after: COUNT,
  stall_after: COUNT,
  stall_ms: MILLIS,
  malformed_after: COUNT,
  tool_call: { kind: 'bool' },
  tool_name: { kind: 'string', maxLength: 256 },
  cache_min_tokens: COUNT,
  redacted_thinking: { kind: 'bool' },
  chunk_chars: { kind: 'int', min: 1, max: 10_000 },
  huge_event_bytes: BYTES,
  unterminated_bytes: BYTES,
  error_body_bytes: BYTES,
  error_message: { kind: 'string', maxLength: 4096 },
  body_cut_bytes: BYTES,
  body_reset_bytes: BYTES,
  body_stall_after: BYTES,
  body_declared: { kind: 'bool' },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkValue(name: string, spec: Spec, value: unknown): string | null {
  switch (spec.kind) {
    case 'int':
      return Number.isInteger(value) && (value as number) >= spec.min && (value as number) <= spec.max
        ? null
        : `mock.${name} must be an integer between ${spec.min} and ${spec.max}`;
    case 'bool':
      return typeof value === 'boolean' ? null : `mock.${name} must be a boolean`;
    case 'string':
      return typeof value === 'string' && value.length > 0 && value.length <= spec.maxLength
        ? null
        : `mock.${name} must be a non-empty string of at most ${spec.maxLength} characters`;
  }
}

/**
 * Controls written into the model id after its name, `echo;cut_after=3;tool_call=true`:
 * they reach the mock through a gateway that translates the request into
 * another provider's format (where a `mock` body field has no place), since
 * every format carries the model id. `true`/`false` are booleans, digits integers.
 */
export function controlsFromModel(model: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of model.split(';').slice(1)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const value = decodeURIComponent(pair.slice(eq + 1));
    out[pair.slice(0, eq)] =
      value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value;
  }
  return out;
}

/** The request's controls: the `mock` body field and any written into the model id (the body's win). */
export function parseRequestControls(mock: unknown, model: unknown): ControlsResult {
  const fromModel = typeof model === 'string' && model.includes(';') ? controlsFromModel(model) : {};
  if (Object.keys(fromModel).length === 0) return parseControls(mock);
  if (mock !== undefined && mock !== null && !isRecord(mock))
    return { ok: false, param: 'mock', message: 'mock must be an object' };
  return parseControls({ ...fromModel, ...(mock ?? {}) });
}

/** Parses the request's `mock` field (undefined → defaults). */
export function parseControls(raw: unknown): ControlsResult {
  if (raw === undefined || raw === null) return { ok: true, controls: DEFAULT_CONTROLS };
  if (!isRecord(raw)) return { ok: false, param: 'mock', message: 'mock must be an object' };
  const out: Record<string, unknown> = { ...DEFAULT_CONTROLS };
  for (const [name, value] of Object.entries(raw)) {
    const spec = (CONTROL_SPECS as Readonly<Record<string, Spec>>)[name];
    if (!spec) return { ok: false, param: `mock.${name}`, message: `Unknown mock control 'mock.${name}'` };
    const problem = checkValue(name, spec, value);
    if (problem) return { ok: false, param: `mock.${name}`, message: problem };
    out[name] = value;
  }
  if (out.fail_first !== undefined && out.key === undefined) {
    return { ok: false, param: 'mock.key', message: 'mock.key is required with mock.fail_first' };
  }
  return { ok: true, controls: out as unknown as Controls };
}
