/**
 * A misbehaving upstream after the status line: a whole (non-stream) answer
 * cut (`body_cut_bytes`), reset (`body_reset_bytes`) or stalled
 * (`body_stall_after` + `stall_ms`) part-way, and injected errors with a chosen
 * message (`error_message`, `{key}` → the credential presented) or a huge body
 * (`error_body_bytes`). Large bodies are written in 64 KiB pieces on demand, so
 * a 64 MiB fault costs the mock no memory.
 */
import type { Controls } from './controls';
import { errorBody, type ErrorDetail } from './errors';
import { jsonResponse, newRequestId, requestIdHeader, sleep, type Shape } from './http';

const encoder = new TextEncoder();
const PIECE = 64 * 1024;
const FILLER = encoder.encode('x'.repeat(PIECE));

/** The key the request authenticated with (Bearer value or x-api-key), for `{key}` in error_message. */
export function presentedKey(request: Request): string {
  const bearer = /^Bearer\s+(\S+)/i.exec(request.headers.get('authorization') ?? '');
  return bearer?.[1] ?? request.headers.get('x-api-key')?.trim() ?? '';
}

/** A 200 JSON answer, with the body faults of `controls` applied. */
export function jsonAnswer(body: unknown, headers: Record<string, string>, controls: Controls): Response {
  const { body_cut_bytes: cut, body_reset_bytes: reset, body_stall_after: stallAfter } = controls;
  if (cut === undefined && reset === undefined && stallAfter === undefined)
    return jsonResponse(body, 200, headers);
  const bytes = encoder.encode(JSON.stringify(body));
  const init = { status: 200, headers: { 'content-type': 'application/json', ...headers } };
  if (reset !== undefined) {
    // A declared length that is never reached is a truncated transfer for any client (see README, reset_after).
    const { readable, writable } = new FixedLengthStream(bytes.byteLength);
    const writer = writable.getWriter();
    void writer
      .write(bytes.subarray(0, Math.min(reset, bytes.byteLength - 1)))
      .then(() => writer.abort(new Error('mock-llm: connection reset (mock.body_reset_bytes)')))
      .catch(() => undefined);
    return new Response(readable, init);
  }
  const pieces: (Uint8Array | number)[] =
    cut !== undefined
      ? [bytes.subarray(0, cut)]
      : [bytes.subarray(0, stallAfter), controls.stall_ms, bytes.subarray(stallAfter)];
  const played = playPieces(pieces);
  if (controls.body_declared && cut === undefined) {
    const length = String(bytes.byteLength);
    const declared = { ...init, headers: { ...init.headers, 'content-length': length } };
    return new Response(played.pipeThrough(new FixedLengthStream(bytes.byteLength)), declared);
  }
  return new Response(played, init);
}

/** Plays byte pieces in order; a number is a pause of that many ms. Cancel ends a pause. */
function playPieces(pieces: (Uint8Array | number)[]): ReadableStream<Uint8Array> {
  let wake: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          const piece = pieces.shift();
          if (piece === undefined) return controller.close();
          if (typeof piece !== 'number') return controller.enqueue(piece);
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, piece);
          });
          if (wake === undefined) return;
        }
      },
      cancel() {
        if (timer !== undefined) clearTimeout(timer);
        const resume = wake;
        wake = undefined;
        resume?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * An injected error in `shape`'s envelope with the controls' message and size:
 * `error_message` replaces the message (`{key}` → `credential`), and
 * `error_body_bytes` pads the message so the body is about that many bytes.
 */
export async function customError(
  shape: Shape,
  status: number,
  detail: ErrorDetail,
  controls: Controls,
  credential: string,
): Promise<Response> {
  const message = controls.error_message?.replaceAll('{key}', credential) ?? detail.message;
  const requestId = newRequestId();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [requestIdHeader(shape)]: requestId,
  };
  if (status === 429) headers['retry-after'] = '1';
  const size = controls.error_body_bytes;
  if (size === undefined)
    return jsonResponse(errorBody(shape, { ...detail, message }, requestId), status, headers);
  const marker = '\u0000fill\u0000';
  const text = JSON.stringify(errorBody(shape, { ...detail, message: `${message} ${marker}` }, requestId));
  const [before = '', after = ''] = text.split(JSON.stringify(marker).slice(1, -1));
  const head = encoder.encode(before);
  const tail = encoder.encode(after);
  let left = Math.max(0, size - head.byteLength - tail.byteLength);
  const pieces: Uint8Array[] = [head];
  while (left > 0) {
    const n = Math.min(left, PIECE);
    pieces.push(n === PIECE ? FILLER : FILLER.subarray(0, n));
    left -= n;
  }
  pieces.push(tail);
  await sleep(0);
  return new Response(playPieces(pieces), { status, headers });
}
