/**
 * The JSON budget every request body is held to before it is parsed (pure).
 * Size is bounded while reading (read-body.ts: 413); depth is bounded here,
 * by one linear scan of the text that counts `[` and `{` outside strings, so
 * nothing recursive (JSON.parse's consumers, canonical cache keys, token
 * estimates, JSON.stringify of tools) ever sees deeper input than
 * MAX_JSON_DEPTH. 64 levels is several times what real chat, tool-schema or
 * admin bodies use (a tool's JSON schema rarely passes 10) and far below what
 * any recursive walk in a Worker can take.
 */

export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * The deepest nesting of arrays and objects in `text`, in one pass; it stops
 * as soon as the depth passes `limit` and returns that depth. Strings are
 * skipped with indexOf (most of a chat body is string content), so the scan
 * costs about what JSON.parse does, or far less. Malformed text is measured
 * as far as it goes: rejecting it is JSON.parse's job.
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i + 1) - 1;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return deepest;
}

/** The index after the quote closing a string whose content starts at `from` (text.length if none). */
function stringEnd(text: string, from: number): number {
  let at = from;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return text.length;
    let backslashes = 0;
    for (let k = quote - 1; k >= at && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/**
 * True when `text` nests deeper than `max` levels. Nesting can be no deeper
 * than the number of `[` and `{` in the text, so a body with at most `max` of
 * them (a usual chat body has a handful) is passed after a few native indexOf
 * calls, without the character scan.
 */
export function tooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  if (openersAtMost(text, max)) return false;
  return jsonDepth(text, max) > max;
}

/** Whether `text` holds at most `max` `[` and `{` together (strings included: an over-count is safe). */
function openersAtMost(text: string, max: number): boolean {
  let seen = 0;
  for (const opener of ['{', '[']) {
    for (let at = text.indexOf(opener); at !== -1; at = text.indexOf(opener, at + 1)) {
      if (++seen > max) return false;
    }
  }
  return true;
}
