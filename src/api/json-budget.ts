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
 * as soon as the depth passes `limit` and returns that depth. Malformed text
 * is measured as far as it goes: rejecting it is JSON.parse's job.
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
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

/** True when `text` nests deeper than `max` levels. */
export function tooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  return jsonDepth(text, max) > max;
}
