/**
 * Splits a byte stream into complete Server-Sent Events without copying the
 * common case: when a chunk holds only whole events it is forwarded as is.
 * Lines end in LF or CRLF (every LLM provider uses these; bare CR is not supported).
 *
 * Linear time whatever the upstream sends: each byte is scanned once, when its
 * chunk arrives. An event split across chunks is kept as a list of its pieces
 * (never re-joined or rescanned per chunk) and copied once, when its blank line
 * arrives. A single event may not exceed `maxEventBytes`: past it the framer
 * stops (`tooLarge`) instead of holding an unbounded event in memory.
 */

export interface SseEvent {
  /** The `event:` field, or null for the default `message` type. */
  readonly event: string | null;
  /** The `data:` lines joined by LF; empty for comment-only events. */
  readonly data: string;
}

export interface SseFrame {
  readonly event: SseEvent;
  /** The raw bytes of the event, including its terminating blank line. */
  readonly bytes: Uint8Array;
}

/**
 * The largest single event relayed (1 MiB). Chat and Messages events are a few
 * hundred bytes; an event this large is a broken or hostile upstream, and
 * holding more would let one stream take a large share of the isolate's memory.
 */
export const MAX_EVENT_BYTES = 1_048_576;

const LF = 10;
const CR = 13;
const decoder = new TextDecoder();

export class SseFramer {
  /** The pieces of the current, unfinished event, in order. */
  private parts: Uint8Array[] = [];
  /** Stream offsets: bytes pushed so far, where the current event and line begin. */
  private offset = 0;
  private eventStart = 0;
  private lineStart = 0;
  /** Whether the last byte pushed was CR (a CRLF blank line may span two chunks). */
  private lastWasCR = false;
  private overflow = false;

  constructor(private readonly maxEventBytes = MAX_EVENT_BYTES) {}

  /** Feeds one chunk; returns the events it completed, parsed. After `tooLarge`, returns nothing. */
  push(chunk: Uint8Array): SseFrame[] {
    return this.pushRaw(chunk).map((bytes) => ({ event: parseEvent(bytes), bytes }));
  }

  /**
   * Feeds one chunk; returns the raw bytes of the events it completed, unparsed (the relay's byte-level
   * observers read only the few events that matter). After `tooLarge`, returns nothing.
   */
  pushRaw(chunk: Uint8Array): Uint8Array[] {
    if (this.overflow) return [];
    const frames: Uint8Array[] = [];
    const base = this.offset;
    for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, i + 1)) {
      const at = base + i;
      const lineStart = this.lineStart;
      const prevIsCR = i > 0 ? chunk[i - 1] === CR : this.lastWasCR;
      const blank = at === lineStart || (at === lineStart + 1 && prevIsCR);
      this.lineStart = at + 1;
      if (!blank) continue;
      if (at + 1 - this.eventStart > this.maxEventBytes) return this.stop(frames);
      // A blank line with no event before it (a keep-alive) is skipped, not emitted.
      if (lineStart > this.eventStart) {
        frames.push(this.take(chunk, i + 1));
      } else {
        this.parts = [];
      }
      this.eventStart = at + 1;
    }
    const end = base + chunk.byteLength;
    this.offset = end;
    this.lastWasCR = chunk.byteLength > 0 ? chunk[chunk.byteLength - 1] === CR : this.lastWasCR;
    if (end - this.eventStart > this.maxEventBytes) return this.stop(frames);
    if (this.eventStart < end) {
      // The tail of a chunk whose head was relayed is copied: the relayed part may be handed on.
      const from = this.eventStart - base;
      this.parts.push(from <= 0 ? chunk : chunk.slice(from));
    }
    return frames;
  }

  /** Bytes held of an event that has not got its blank line yet. */
  get pendingBytes(): number {
    return this.offset - this.eventStart;
  }

  /** An event grew past `maxEventBytes`; nothing more is framed. */
  get tooLarge(): boolean {
    return this.overflow;
  }

  /** The current event's bytes up to `end` in `chunk`: a view when it lies in the chunk, else one copy. */
  private take(chunk: Uint8Array, end: number): Uint8Array {
    const start = this.eventStart - this.offset;
    if (start >= 0) return chunk.subarray(start, end);
    const parts = this.parts;
    this.parts = [];
    const out = new Uint8Array(this.offset - this.eventStart + end);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.byteLength;
    }
    out.set(chunk.subarray(0, end), at);
    return out;
  }

  private stop(frames: Uint8Array[]): Uint8Array[] {
    this.overflow = true;
    this.parts = [];
    return frames;
  }
}

export function parseEvent(bytes: Uint8Array): SseEvent {
  const text = decoder.decode(bytes);
  let event: string | null = null;
  let data: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data = data === null ? value : `${data}\n${value}`;
    else if (field === 'event') event = value;
  }
  return { event, data: data ?? '' };
}
