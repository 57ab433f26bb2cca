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
 * run is held (a base64 blob, an open key block), the next settle waits until
 * the pending text has doubled, so the rescans add up to linear work.
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

export function createStreamRedactor({ finder, replace }: StreamRedactorOptions): StreamTransform {
  const settling = isSettling(finder) ? finder : combineFinders([finder]);
  const keep = settling.lookbehind;
  /** The last `keep` characters already passed on, as they were: context for look-behinds and key names. */
  let context = '';
  let pending = '';
  /** Characters the last settle kept back: the next waits until the pending text is twice that. */
  let held = 0;
  let count = 0;

  const release = (final: boolean): string => {
    if (pending === '') return '';
    const text = context + pending;
    const from = context.length;
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
      // Settling rescans what is pending; waiting until it doubles keeps a long held run linear overall.
      return pending.length >= 2 * held ? release(false) : '';
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
