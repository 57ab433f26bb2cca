/**
 * Byte-level reading of one framed SSE event, without decoding it or parsing its JSON: where its
 * `event:` and `data:` values lie, whether the data is shaped like a JSON object, and which of a few
 * known keys it holds (with the byte length of their string values). The relay's byte observers
 * (src/sse/byte-observer.ts) use it to leave the common event unparsed.
 *
 * Every function is one forward pass over the bytes it reads, and allocates nothing.
 */

const LF = 10;
const CR = 13;
const SP = 32;
const TAB = 9;
const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const ascii = (s: string) => new TextEncoder().encode(s);
const DATA = ascii('data:');
const EVENT = ascii('event:');

/** Where an event's single `data:` value and its optional `event:` value lie (end exclusive). */
export interface EventSpan {
  nameStart: number;
  nameEnd: number;
  dataStart: number;
  dataEnd: number;
}

export const emptySpan = (): EventSpan => ({ nameStart: -1, nameEnd: -1, dataStart: -1, dataEnd: -1 });

/**
 * Reads an event made of one `data:` line and at most one `event:` line, in either order, ending in
 * its blank line. Anything else (comments, `id:`, several data lines, no data) returns false: the
 * caller then parses the event in full.
 */
export function splitEvent(bytes: Uint8Array, span: EventSpan): boolean {
  span.nameStart = span.dataStart = -1;
  let pos = 0;
  for (;;) {
    const lf = bytes.indexOf(LF, pos);
    if (lf === -1) return false;
    const end = lf > pos && bytes[lf - 1] === CR ? lf - 1 : lf;
    if (end === pos) return lf + 1 === bytes.length && span.dataStart !== -1;
    if (startsWith(bytes, pos, end, DATA) && span.dataStart === -1) {
      span.dataStart = valueStart(bytes, pos + DATA.length, end);
      span.dataEnd = end;
    } else if (startsWith(bytes, pos, end, EVENT) && span.nameStart === -1) {
      span.nameStart = valueStart(bytes, pos + EVENT.length, end);
      span.nameEnd = end;
    } else return false;
    pos = lf + 1;
  }
}

/** Whether `bytes[start, end)` is exactly `word`. */
export function bytesAre(bytes: Uint8Array, start: number, end: number, word: Uint8Array): boolean {
  return end - start === word.length && startsWith(bytes, start, end, word);
}

/** Whether the value, past surrounding white space, begins with `{` and ends with `}`. */
export function objectShaped(bytes: Uint8Array, start: number, end: number): boolean {
  let s = start;
  let e = end;
  while (s < e && isSpace(bytes[s]!)) s++;
  while (e > s && isSpace(bytes[e - 1]!)) e--;
  return e - s >= 2 && bytes[s] === 0x7b && bytes[e - 1] === 0x7d;
}

/**
 * Finds the JSON keys among `keys` in `bytes[start, end)` and calls `onKey(index, valueStart)` for
 * each, in order; `onKey` returns where to go on from (past the value it read, or `valueStart`).
 * One pass that steps over every string whole, so text never reads as a key; a string followed by a
 * colon is a key. A plain loop: the runtime's TypedArray `indexOf` costs more per call than it saves
 * on events of a few hundred bytes.
 */
export function scanKeys(
  bytes: Uint8Array,
  start: number,
  end: number,
  keys: readonly Uint8Array[],
  onKey: (key: number, valueStart: number) => number,
): void {
  let i = start;
  while (i < end) {
    if (bytes[i] !== QUOTE) {
      i++;
      continue;
    }
    const name = i + 1;
    i = stringEnd(bytes, i, end);
    const nameEnd = i - 1;
    let c = i;
    while (c < end && isSpace(bytes[c]!)) c++;
    if (bytes[c] !== COLON) continue;
    let v = c + 1;
    while (v < end && isSpace(bytes[v]!)) v++;
    i = v;
    for (let k = 0; k < keys.length; k++) {
      if (!bytesAre(bytes, name, nameEnd, keys[k]!)) continue;
      i = Math.max(v, onKey(k, v));
      break;
    }
  }
}

/** The end (past the closing quote) of the JSON string starting at `at`, or `end` if it is not closed. */
export function stringEnd(bytes: Uint8Array, at: number, end: number): number {
  let i = at + 1;
  while (i < end) {
    const byte = bytes[i];
    if (byte === QUOTE) return i + 1;
    i += byte === BACKSLASH ? 2 : 1;
  }
  return end;
}

export const isQuote = (byte: number | undefined) => byte === QUOTE;
export const asciiBytes = ascii;

function startsWith(bytes: Uint8Array, start: number, end: number, word: Uint8Array): boolean {
  if (end - start < word.length) return false;
  for (let i = 0; i < word.length; i++) if (bytes[start + i] !== word[i]) return false;
  return true;
}

function valueStart(bytes: Uint8Array, at: number, end: number): number {
  return at < end && bytes[at] === SP ? at + 1 : at;
}

function isSpace(byte: number): boolean {
  return byte === SP || byte === TAB || byte === LF || byte === CR;
}
