/**
 * Faults applied before any answer is sent: `latency_ms`, `status` and
 * `fail_first`/`key` (with `error_message` / `error_body_bytes` shaping the error). The per-key request counts live in isolate memory on
 * purpose: retry tests run against one local isolate, and a restart resetting
 * them is harmless. The map is bounded so a long benchmark cannot grow it.
 */
import { customError } from './body-faults';
import { DEFAULT_FAIL_STATUS, type Controls } from './controls';
import { injectedError, injectedErrorDetail } from './errors';
import { sleep, type Shape } from './http';

const MAX_KEYS = 10_000;
const requestCounts = new Map<string, number>();

/** Records one more request for `key` and returns its 1-based number. */
function countRequest(key: string): number {
  const n = (requestCounts.get(key) ?? 0) + 1;
  if (!requestCounts.has(key) && requestCounts.size >= MAX_KEYS) {
    const oldest = requestCounts.keys().next();
    if (!oldest.done) requestCounts.delete(oldest.value);
  }
  requestCounts.set(key, n);
  return n;
}

/**
 * The status to fail with, or null to answer normally. `requestNumber` is the
 * 1-based count of requests seen for `controls.key` (only read with `fail_first`).
 */
export function failureStatus(controls: Controls, requestNumber: number): number | null {
  if (controls.fail_first !== undefined) {
    return requestNumber <= controls.fail_first ? (controls.status ?? DEFAULT_FAIL_STATUS) : null;
  }
  return controls.status ?? null;
}

/**
 * Waits `latency_ms`, then returns the injected error response, if this request
 * is to fail; `credential` (the key presented) fills `{key}` in `error_message`.
 */
export async function applyPreResponseFaults(
  shape: Shape,
  controls: Controls,
  credential = '',
): Promise<Response | null> {
  const requestNumber =
    controls.fail_first !== undefined && controls.key !== undefined ? countRequest(controls.key) : 0;
  await sleep(controls.latency_ms);
  const status = failureStatus(controls, requestNumber);
  if (status === null) return null;
  if (controls.error_message === undefined && controls.error_body_bytes === undefined)
    return injectedError(shape, status);
  return customError(shape, status, injectedErrorDetail(shape, status), controls, credential);
}
