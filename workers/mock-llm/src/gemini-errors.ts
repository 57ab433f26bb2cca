/**
 * Google's error envelope for the Gemini fake, `{"error":{"code","message","status"}}`
 * with the google.rpc status word for the HTTP status, and the `mock.status` /
 * `fail_first` faults rendered in it. The fault decision (latency, per-key
 * counts) is the shared one in faults.ts; only the body is Google's.
 */
import type { Controls } from './controls';
import { applyPreResponseFaults } from './faults';

/** google.rpc.Code names as the Generative Language API returns them, by HTTP status. */
const STATUS_WORDS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function statusWord(status: number): string {
  return STATUS_WORDS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

const INJECTED: Readonly<Record<number, string>> = {
  400: 'Request contains an invalid argument. (injected by mock.status)',
  403: 'The caller does not have permission (injected by mock.status)',
  404: 'Requested entity was not found. (injected by mock.status)',
  429: 'Resource has been exhausted (e.g. check quota). (injected by mock.status)',
  500: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting (injected by mock.status)',
  503: 'The model is overloaded. Please try again later. (injected by mock.status)',
};

/** Google puts retry hints in `details` (RetryInfo), not in a retry-after header. */
function details(status: number): Record<string, unknown> {
  if (status === 429)
    return { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }] };
  if (status === 400 || status === 403)
    return {
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: statusWord(status),
          domain: 'googleapis.com',
        },
      ],
    };
  return {};
}

export function geminiErrorBody(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message, status: statusWord(status), ...details(status) } });
}

export function geminiError(status: number, message: string): Response {
  return new Response(geminiErrorBody(status, message), {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
  });
}

/** A 400 INVALID_ARGUMENT, as Google words a bad request body. */
export function invalidArgument(message: string): Response {
  return geminiError(400, message);
}

/** What the real API answers a call with no API key. */
export function missingGeminiKey(): Response {
  return geminiError(
    403,
    "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  );
}

/** The key a Gemini call presented: `x-goog-api-key`, or the `key` query parameter the real API also takes. */
export function geminiKey(request: Request): string {
  return (request.headers.get('x-goog-api-key') ?? new URL(request.url).searchParams.get('key') ?? '').trim();
}

const encoder = new TextEncoder();
const PIECE = 64 * 1024;

/** A body of about `size` bytes: the envelope with the message padded, written in pieces on demand. */
function paddedBody(status: number, message: string, size: number): ReadableStream<Uint8Array> {
  const marker = '\u0000fill\u0000';
  const text = geminiErrorBody(status, `${message} ${marker}`);
  const [head = '', tail = ''] = text.split(JSON.stringify(marker).slice(1, -1));
  let left = Math.max(0, size - head.length - tail.length);
  const pieces = [encoder.encode(head)];
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const first = pieces.shift();
        if (first) return controller.enqueue(first);
        if (left > 0) {
          const n = Math.min(left, PIECE);
          left -= n;
          return controller.enqueue(encoder.encode('x'.repeat(n)));
        }
        if (tail) {
          controller.enqueue(encoder.encode(tail));
          return controller.close();
        }
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The injected error for this request in Google's envelope, or null to answer
 * normally. `error_message` ({key} → the key presented) and `error_body_bytes` apply.
 */
export async function geminiFault(controls: Controls, key: string): Promise<Response | null> {
  const { error_message: custom, error_body_bytes: size, ...decision } = controls;
  const shared = await applyPreResponseFaults('openai', decision as Controls, key);
  if (!shared) return null;
  await shared.body?.cancel();
  const status = shared.status;
  const message =
    custom?.replaceAll('{key}', key) ?? INJECTED[status] ?? `Error ${status} (injected by mock.status).`;
  if (size === undefined) return geminiError(status, message);
  return new Response(paddedBody(status, message, size), {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
  });
}
