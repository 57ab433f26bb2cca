/**
 * PEM private key blocks: `-----BEGIN … PRIVATE KEY-----` (RSA, EC, DSA,
 * OPENSSH, ENCRYPTED, PGP … BLOCK or none) through the matching END line. The
 * body is capped at 8,000 characters, so a span is at most PEM_MAX_LENGTH
 * (8 KiB), which covers an RSA 8192-bit key. A block whose END line does not
 * come within the cap (or never comes) is still redacted from its BEGIN line
 * over as much body as follows, up to the cap; what lies past the cap is not
 * part of the span. Over-redacting an unterminated block is the safe side.
 */
import { type Detector, patternDetector } from './detector';
import { charSet } from './char-set';

const LABEL = '(?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----';
const BODY_MAX = 8000;
/** BEGIN line, body, END line: a real bound on a span. */
export const PEM_MAX_LENGTH = 8192;
const HEADER_MAX = 11 + 3 * 21 + 23;

// The body stops at the first `-----` (an END line, or anything else), so an attempt reads at most to there.
const PEM = new RegExp(
  `(-----BEGIN ${LABEL})((?:[A-Za-z0-9+/=\\s:,.]|-(?!----)){0,${BODY_MAX}})(-----END ${LABEL})?`,
  'g',
);
const PEM_AT = new RegExp(PEM.source, 'y');
const BEGIN = '-----BEGIN';
const PREFIX_CHARS = new Set([...'-BEGIN'].map((c) => c.charCodeAt(0)));

/** Whether the last `k` characters of text are the first `k` of BEGIN. */
function endsWithStart(text: string, k: number): boolean {
  const at = text.length - k;
  for (let i = 0; i < k; i++) if (text.charCodeAt(at + i) !== BEGIN.charCodeAt(i)) return false;
  return true;
}

const base = patternDetector({
  kind: 'private_key',
  rank: 100,
  maxLength: PEM_MAX_LENGTH,
  pattern: PEM,
  needs: [BEGIN],
  // Replaced by holdPem: the generic rule would hold any run of body characters, which prose is.
  tail: { chars: charSet('-'), prefixes: [BEGIN] },
});

/** A block under way holds from its BEGIN line; the end of a text that could still become one holds too. */
function holdPem(text: string, from: number): number {
  const end = text.length;
  const begin = text.lastIndexOf(BEGIN, end - 1);
  if (begin >= from && begin >= end - PEM_MAX_LENGTH - 2) {
    PEM_AT.lastIndex = begin;
    const m = PEM_AT.exec(text);
    if (!m) {
      if (end - begin < HEADER_MAX) return begin;
    } else {
      const stop = begin + m[0].length;
      const open = m[3] === undefined && m[2]!.length < BODY_MAX;
      // An open body that reaches the end, or stops at dashes that could still become its END line.
      if (open && (stop === end || end - stop < HEADER_MAX)) return begin;
    }
  }
  // The longest suffix that is a start of "-----BEGIN" (most texts end in none of its letters).
  if (!PREFIX_CHARS.has(text.charCodeAt(end - 1))) return end;
  for (let k = Math.min(BEGIN.length, end - from); k > 0; k--) if (endsWithStart(text, k)) return end - k;
  return end;
}

export const privateKeyDetector: Detector = { ...base, hold: holdPem };
