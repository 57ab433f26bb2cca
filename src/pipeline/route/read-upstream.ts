/**
 * A bounded read of a whole upstream body: at most `maxBytes`, within
 * `deadlineMs`. The outcome is a value, so the caller decides what each fault
 * means (an error body keeps what arrived; a JSON answer becomes a 502/504).
 * The reader is always released: cancelled unless it ended by itself.
 */
import { within } from '../../util/within';

export type BodyRead =
  | { readonly kind: 'done'; readonly text: string }
  /** More than maxBytes arrived; `text` is the first maxBytes (possibly cutting a character). */
  | { readonly kind: 'too_large'; readonly text: string }
  /** The body failed mid-way (connection reset, truncated transfer, aborted). */
  | { readonly kind: 'interrupted'; readonly text: string }
  | { readonly kind: 'timeout'; readonly text: string };

const decoder = new TextDecoder();

/**
 * readBounded for a whole response. When the response declares a length within
 * `maxBytes` and is not compressed (so the declared length is what will be read),
 * the runtime reads it in one call, bounded in time: no read per chunk, no race
 * per read. Otherwise chunk by chunk (readBounded).
 */
export function readResponse(
  response: Response,
  limits: { readonly maxBytes: number; readonly deadlineMs: number },
): Promise<BodyRead> {
  const declared = response.headers.get('content-length');
  const length = declared === null ? Number.NaN : Number(declared);
  if (!Number.isSafeInteger(length) || length > limits.maxBytes || response.headers.has('content-encoding'))
    return readBounded(response.body, limits);
  const whole = response.text().then(
    (text): BodyRead => ({ kind: 'done', text }),
    (): BodyRead => ({ kind: 'interrupted', text: '' }),
  );
  return within(limits.deadlineMs, whole, (): BodyRead => {
    void response.body?.cancel().catch(() => {});
    return { kind: 'timeout', text: '' };
  });
}

export async function readBounded(
  body: ReadableStream<Uint8Array> | null,
  limits: { readonly maxBytes: number; readonly deadlineMs: number },
): Promise<BodyRead> {
  if (!body) return { kind: 'done', text: '' };
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const deadline = new Promise<'timeout'>(
    (resolve) => (timer = setTimeout(() => resolve('timeout'), limits.deadlineMs)),
  );
  let kind: BodyRead['kind'] = 'done';
  try {
    for (;;) {
      const read = await Promise.race([reader.read(), deadline]).catch(() => 'interrupted' as const);
      if (read === 'timeout' || read === 'interrupted') {
        kind = read;
        break;
      }
      if (read.done) break;
      parts.push(read.value);
      size += read.value.byteLength;
      if (size > limits.maxBytes) {
        kind = 'too_large';
        break;
      }
    }
  } finally {
    if (timer !== null) clearTimeout(timer);
    if (kind !== 'done') void reader.cancel().catch(() => {});
  }
  return { kind, text: decodeParts(parts, Math.min(size, limits.maxBytes)) };
}

function decodeParts(parts: Uint8Array[], bytes: number): string {
  if (parts.length === 1) return decoder.decode(parts[0]!.subarray(0, bytes));
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const part of parts) {
    if (at >= bytes) break;
    const piece = part.subarray(0, bytes - at);
    out.set(piece, at);
    at += piece.byteLength;
  }
  return decoder.decode(out);
}
