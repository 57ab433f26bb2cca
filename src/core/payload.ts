/**
 * Prompt and completion capture for the request log (pure). Captured only when
 * the key opts in (`log_payload`) and the request does not send
 * `cf-aig-collect-log-payload: false`; each side is cut to LOG_PAYLOAD_MAX_BYTES
 * UTF-8 bytes (default 32 KiB, at most 64 KiB so both fit in one 128 KB queue
 * message; never splitting a character) and the log row
 * says when it was cut. What is stored: the request body as JSON; the response
 * body as returned for JSON answers and cache hits, and for streams the
 * delivered text (content and tool-call arguments), not the SSE framing.
 * Headers are never captured, so the gateway key and provider keys cannot leak here.
 */
import type { LogEvent } from './log-event';
import type { KeyRecord } from './key-record';

export const DEFAULT_PAYLOAD_MAX_BYTES = 32 * 1024;
export const PAYLOAD_MAX_BYTES_CAP = 64 * 1024;

/** What the pipeline collects for one request; turned into LogEvent.payload when it ends. */
export interface PayloadCapture {
  readonly maxBytes: number;
  readonly request: string;
  readonly requestTruncated: boolean;
}

export function payloadMaxBytes(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? Math.min(n, PAYLOAD_MAX_BYTES_CAP) : DEFAULT_PAYLOAD_MAX_BYTES;
}

/** Whether to capture, and the request side if so; null when the key or the request says no. */
export function capturePayload(
  key: Pick<KeyRecord, 'logPayload'>,
  headers: Headers,
  body: unknown,
  maxBytesVar: string | undefined,
): PayloadCapture | null {
  if (!key.logPayload) return null;
  if (headers.get('cf-aig-collect-log-payload')?.trim().toLowerCase() === 'false') return null;
  const maxBytes = payloadMaxBytes(maxBytesVar);
  const request = truncateUtf8(JSON.stringify(body) ?? '', maxBytes);
  return { maxBytes, request: request.text, requestTruncated: request.truncated };
}

/** `responseText`: the raw (uncut) response text; the stream observer already keeps at most maxBytes chars. */
export function payloadForLog(
  capture: PayloadCapture,
  responseText: string | null,
): NonNullable<LogEvent['payload']> {
  const response = responseText === null ? null : truncateUtf8(responseText, capture.maxBytes);
  return {
    request: capture.request,
    response: response?.text ?? null,
    truncated: capture.requestTruncated || (response?.truncated ?? false),
  };
}

const encoder = new TextEncoder();

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8, cut between characters. */
export function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  // A UTF-16 code unit never takes more than 3 UTF-8 bytes.
  if (text.length * 3 <= maxBytes) return { text, truncated: false };
  const buffer = new Uint8Array(maxBytes);
  const { read } = encoder.encodeInto(text, buffer);
  return read >= text.length ? { text, truncated: false } : { text: text.slice(0, read), truncated: true };
}
