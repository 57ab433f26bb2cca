/**
 * Restoration of a text that arrives in pieces: placeholders this request
 * issued (`[EMAIL_1]`) become their values again even when split across
 * chunks. Only a trailing `[` followed by characters that could still complete
 * a placeholder is held back (at most PLACEHOLDER_MAX_LENGTH - 1 characters);
 * everything else passes at once.
 */
import { PLACEHOLDER, PLACEHOLDER_MAX_LENGTH, type Placeholders } from './placeholders';
import type { StreamTransform } from './stream-transform';

/** Where a trailing, still incomplete placeholder starts; `text.length` when there is none. */
export function placeholderHold(text: string): number {
  const open = text.lastIndexOf('[');
  if (open < 0 || text.length - open >= PLACEHOLDER_MAX_LENGTH) return text.length;
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const ok = (c >= 65 && c <= 90) || c === 95 || (i > open + 1 && c >= 48 && c <= 57);
    if (!ok) return text.length;
  }
  return open;
}

export function createStreamRestorer(placeholders: Placeholders): StreamTransform {
  let pending = '';
  let count = 0;
  const restore = (text: string): string =>
    text.indexOf('[') < 0
      ? text
      : text.replace(PLACEHOLDER, (label) => {
          const value = placeholders.valueOf(label);
          if (value === undefined) return label;
          count++;
          return value;
        });
  return {
    push(text) {
      pending += text;
      const hold = placeholderHold(pending);
      const out = pending.slice(0, hold);
      pending = pending.slice(hold);
      return restore(out);
    },
    flush() {
      const out = restore(pending);
      pending = '';
      return out;
    },
    get findings() {
      return count;
    },
  };
}
