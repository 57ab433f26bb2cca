/**
 * Bedrock's binary event stream (application/vnd.amazon.eventstream) → SSE
 * frames, so the relay reads ConverseStream like every other stream. Each
 * message is decoded (headers, both CRC32 checksums) by the AWS SDK's own
 * codec; only the length-prefixed framing is done here, to hold at most one
 * partial message and bound its size. Event messages become
 * `event: <:event-type>` + the JSON payload as is; exception and error messages
 * become `event: error` + `{type, message}`; a message that fails to decode
 * becomes `event: malformed` and ends the stream (framing cannot be trusted after it).
 */
import { EventStreamCodec } from '@smithy/core/event-streams';
import { BEDROCK_ERROR_EVENT, BEDROCK_MALFORMED_EVENT } from '../codecs/bedrock/stream';
import { MAX_EVENT_BYTES } from '../sse/framer';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The codec is stateless for decode(); one per isolate. */
const codec = new EventStreamCodec(
  (bytes) => decoder.decode(bytes),
  (text) => encoder.encode(text),
);

/** Prelude (total length, headers length, prelude CRC) plus the message CRC. */
const MIN_MESSAGE_BYTES = 16;
/** The largest message accepted: the relay's cap on one event, plus the binary overhead. */
export const MAX_MESSAGE_BYTES = MAX_EVENT_BYTES + 64 * 1024;

const EVENT_TYPE = /^[A-Za-z][\w-]*$/;

type HeaderValue = { type: string; value: unknown };

function header(headers: Record<string, HeaderValue>, name: string): string | null {
  const h = headers[name];
  return h?.type === 'string' && typeof h.value === 'string' ? h.value : null;
}

function frame(event: string, data: Uint8Array | string): Uint8Array {
  const head = encoder.encode(`event: ${event}\ndata: `);
  const body = typeof data === 'string' ? encoder.encode(data) : data;
  const out = new Uint8Array(head.byteLength + body.byteLength + 2);
  out.set(head, 0);
  out.set(body, head.byteLength);
  out.set([10, 10], head.byteLength + body.byteLength);
  return out;
}

function malformed(reason: string): Uint8Array {
  return frame(BEDROCK_MALFORMED_EVENT, JSON.stringify({ reason }));
}

/** The SSE frame for one complete binary message (or a `malformed` frame). */
export function messageToSse(message: Uint8Array): { frame: Uint8Array; ok: boolean } {
  let decoded: ReturnType<EventStreamCodec['decode']>;
  try {
    decoded = codec.decode(message);
  } catch (err) {
    return { frame: malformed(err instanceof Error ? err.message : 'undecodable message'), ok: false };
  }
  const headers = decoded.headers as Record<string, HeaderValue>;
  const kind = header(headers, ':message-type');
  if (kind === 'exception' || kind === 'error') {
    const type = header(headers, kind === 'exception' ? ':exception-type' : ':error-code') ?? 'unknown';
    let message = header(headers, ':error-message');
    if (message === null) {
      try {
        const payload: unknown = JSON.parse(decoder.decode(decoded.body));
        const m = (payload as { message?: unknown; Message?: unknown } | null) ?? {};
        message =
          typeof m.message === 'string' ? m.message : typeof m.Message === 'string' ? m.Message : null;
      } catch {
        message = null;
      }
    }
    return { frame: frame(BEDROCK_ERROR_EVENT, JSON.stringify({ type, message })), ok: true };
  }
  const event = header(headers, ':event-type');
  if (kind !== 'event' || event === null || !EVENT_TYPE.test(event))
    return { frame: malformed('an event message without a valid :event-type'), ok: false };
  let body = decoded.body;
  // SSE data is one line: a payload with line breaks (JSON whitespace) is re-serialised.
  if (body.includes(10) || body.includes(13)) {
    try {
      body = encoder.encode(JSON.stringify(JSON.parse(decoder.decode(body))));
    } catch {
      return { frame: malformed('an event payload that is not JSON'), ok: false };
    }
  }
  return { frame: frame(event, body), ok: true };
}

/**
 * Splits bytes into whole messages by their length prefix. A message that
 * arrives whole inside one chunk is a view of it; one split across chunks is
 * copied once into a buffer of its declared size (never re-joined per chunk).
 */
class MessageFramer {
  private readonly prefix = new Uint8Array(4);
  private prefixFill = 0;
  private message: Uint8Array | null = null;
  private fill = 0;

  /** The whole messages `chunk` completes, or an error when a declared length is impossible. */
  push(chunk: Uint8Array): { messages: Uint8Array[]; error: string | null } {
    const messages: Uint8Array[] = [];
    let at = 0;
    while (at < chunk.byteLength) {
      if (this.message === null) {
        if (this.prefixFill === 0 && chunk.byteLength - at >= 4) {
          const length = new DataView(chunk.buffer, chunk.byteOffset + at, 4).getUint32(0, false);
          const problem = checkLength(length);
          if (problem) return { messages, error: problem };
          if (chunk.byteLength - at >= length) {
            messages.push(chunk.subarray(at, at + length));
            at += length;
            continue;
          }
          this.message = new Uint8Array(length);
          this.fill = 0;
        } else {
          const n = Math.min(4 - this.prefixFill, chunk.byteLength - at);
          this.prefix.set(chunk.subarray(at, at + n), this.prefixFill);
          this.prefixFill += n;
          at += n;
          if (this.prefixFill < 4) break;
          this.prefixFill = 0;
          const length = new DataView(this.prefix.buffer).getUint32(0, false);
          const problem = checkLength(length);
          if (problem) return { messages, error: problem };
          this.message = new Uint8Array(length);
          this.message.set(this.prefix, 0);
          this.fill = 4;
          continue;
        }
      }
      const n = Math.min(this.message.byteLength - this.fill, chunk.byteLength - at);
      this.message.set(chunk.subarray(at, at + n), this.fill);
      this.fill += n;
      at += n;
      if (this.fill === this.message.byteLength) {
        messages.push(this.message);
        this.message = null;
      }
    }
    return { messages, error: null };
  }
}

function checkLength(length: number): string | null {
  if (length < MIN_MESSAGE_BYTES) return `a message declaring ${length} bytes, below the minimum`;
  if (length > MAX_MESSAGE_BYTES)
    return `a message declaring ${length} bytes, above the ${MAX_MESSAGE_BYTES}-byte cap`;
  return null;
}

/**
 * The transform: binary chunks in, SSE bytes out (one write per input chunk
 * that completed at least one message). After a malformed message it ends the
 * output, which cancels the upstream body. A stream that ends inside a message
 * emits nothing more: the missing terminator makes the relay report it cut.
 */
export function eventStreamToSse(): TransformStream<Uint8Array, Uint8Array> {
  const framer = new MessageFramer();
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const { messages, error } = framer.push(chunk);
      const frames: Uint8Array[] = [];
      let ok = true;
      for (const message of messages) {
        const out = messageToSse(message);
        frames.push(out.frame);
        if (!out.ok) {
          ok = false;
          break;
        }
      }
      if (ok && error) {
        frames.push(malformed(error));
        ok = false;
      }
      if (frames.length > 0) controller.enqueue(join(frames));
      if (!ok) controller.terminate();
    },
  });
}

function join(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
