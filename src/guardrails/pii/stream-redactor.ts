/**
 * Redaction of a text that arrives in pieces (a streamed answer's deltas):
 * text in, safe text out, and a value split across any chunk boundary is
 * still caught. Only what could still be (the start of) a value is held back:
 * each detector says from where the end of the text could still change (a
 * trailing partial word for an e-mail, a trailing number for a phone, an open
 * `-----BEGIN` block up to its 8 KiB cap), so prose flows out at once and the
 * lookahead never exceeds the finder's maxLength (plus one span crossing it).
 * The output is exactly the whole-text redaction of the concatenated input,
 * whatever the chunking (see compose.ts for why). A finder that cannot settle
 * (known only by `find`) holds back its last maxLength characters. When a long
 * run is held (over SHORT_HOLD characters: a base64 blob, an open key block),
 * it is rescanned only when it has doubled or within a work budget (WORK_BUDGET
 * characters scanned per character received), so the rescans add up to linear
 * work whatever the text, at the cost of releasing such a run a little later.
 */
import type { Finding, SpanFinder } from '../finding';
import { combineFinders, isSettling } from './combine';
import type { StreamTransform } from './stream-transform';

export { createStreamRestorer } from './stream-restorer';
export type { StreamTransform } from './stream-transform';

export interface StreamRedactorOptions {
  readonly finder: SpanFinder;
  /** What a found span becomes (a placeholder, or the value itself to let it pass). */
  readonly replace: (finding: Finding, value: string) => string;
}

/** Holds up to this long are settled again on every push (a word, a number); longer ones when doubled. */
export const SHORT_HOLD = 48;
/** Characters scanned per character received that long holds may spend on rescans. */
export const WORK_BUDGET = 4;

export function createStreamRedactor({ finder, replace }: StreamRedactorOptions): StreamTransform {
  const settling = isSettling(finder) ? finder : combineFinders([finder]);
  const keep = settling.lookbehind;
  /** The last `keep` characters already passed on, as they were: context for look-behinds and key names. */
  let context = '';
  let pending = '';
  /** Characters the last settle kept back: when many, the next waits for the pending text to double… */
  let held = 0;
  /** …or for the work budget: characters settles have scanned, against characters received. */
  let scanned = 0;
  let received = 0;
  let count = 0;

  const release = (final: boolean): string => {
    if (pending === '') return '';
    const text = context + pending;
    const from = context.length;
    scanned += pending.length;
    const { findings, cut } = settling.settle(text, from, final);
    held = text.length - cut;
    if (cut === from) return '';
    let out = '';
    let at = from;
    for (const f of findings) {
      out += text.slice(at, f.start) + replace(f, text.slice(f.start, f.end));
      at = f.end;
      count++;
    }
    out += text.slice(at, cut);
    context = text.slice(Math.max(0, cut - keep), cut);
    pending = text.slice(cut);
    return out;
  };

  return {
    push(text) {
      pending += text;
      received += text.length;
      // Settling rescans what is pending. A short hold is rescanned at once; a long one when it has doubled or
      // when the budget allows, so the rescans add up to linear work whatever the text.
      const settle =
        held <= SHORT_HOLD ||
        pending.length >= 2 * held ||
        scanned + pending.length <= WORK_BUDGET * received;
      return settle ? release(false) : '';
    },
    flush() {
      const out = release(true);
      context = '';
      pending = '';
      return out;
    },
    get findings() {
      return count;
    },
  };
}
