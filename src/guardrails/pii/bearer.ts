/**
 * High-entropy credentials found by their context, not their shape: the value
 * after `Bearer `, or after a key name and `:` / `=` (`api_key=`, `token:`,
 * `"client_secret": "…"`, `password=`, `X-Api-Key:`…). The value must be
 * 20–512 characters of base64/base64url/hex-like text, mix letters and digits,
 * and reach 3 bits of entropy per character (a 40-character hex hash is about
 * 3.7; words glued with dashes have no digit). Only the value is the span: the
 * key name stays readable. A bare hash or random-looking string in prose,
 * with no key name before it, is never taken for a credential: git SHAs,
 * UUIDs and checksums in text stay, at the cost of missing a key pasted alone
 * (the prefix detectors catch the ones with a known issuer).
 */
import { charSet } from './char-set';
import { type Detector, patternDetector } from './detector';
import { looksRandom } from './entropy';

const NAMES =
  'api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|client[_-]?secret|' +
  'access[_-]?token|auth[_-]?token|refresh[_-]?token|token|secret|password|passwd|pwd|key';
const VALUE = 'A-Za-z0-9._~+/\\-';
const CONTEXT = `(?<=(?<![A-Za-z0-9])(?:bearer\\s{1,3}|(?:${NAMES})["']?\\s{0,3}[:=]\\s{0,3}["']?))`;
// The value is taken atomically (a look-ahead capture): a run longer than 512 fails without backtracking.
// `=` only as base64 padding at its end, so `token=token=…` costs a few steps per name, not 512.
const BEARER = new RegExp(`${CONTEXT}(?=([${VALUE}]{20,512}={0,2}))\\1(?![${VALUE}=])`, 'gi');

function checkBearer(text: string, start: number, end: number): number {
  let stop = end;
  while (stop > start && (text[stop - 1] === '.' || text[stop - 1] === ',')) stop--;
  return stop - start >= 20 && looksRandom(text, start, stop) ? stop : -1;
}

export const bearerDetector: Detector = patternDetector({
  kind: 'bearer_token',
  rank: 50,
  maxLength: 512,
  lookbehind: 32,
  pattern: BEARER,
  needs: ['=', ':', 'earer', 'EARER'],
  check: checkBearer,
  tail: { chars: charSet('A-Za-z0-9._~+/=-') },
});
