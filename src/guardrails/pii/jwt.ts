/**
 * JSON Web Tokens (compact JWS): three base64url parts joined by dots, the
 * first starting `eyJ` (`{"` encoded) and decoding to a JSON object with a
 * string `alg`. The signature may be empty (`alg: none`). Parts are capped
 * (header 1,500, payload 5,000, signature 1,500 characters), so a span is at
 * most about 8 KB; a longer token is not recognised.
 */
import { charSet } from './char-set';
import { type Detector, patternDetector } from './detector';

const B64 = 'A-Za-z0-9_\\-';
const JWT = new RegExp(
  `(?<![${B64}.])eyJ[${B64}]{5,1500}\\.[${B64}]{2,5000}\\.[${B64}]{0,1500}(?![${B64}]|\\.[${B64}])`,
  'g',
);

function checkJwt(text: string, start: number, end: number): number {
  const dot = text.indexOf('.', start);
  try {
    const b64 = text.slice(start, dot).replace(/-/g, '+').replace(/_/g, '/');
    const header: unknown = JSON.parse(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)));
    const alg = typeof header === 'object' && header !== null ? (header as { alg?: unknown }).alg : undefined;
    return typeof alg === 'string' ? end : -1;
  } catch {
    return -1;
  }
}

export const jwtDetector: Detector = patternDetector({
  kind: 'jwt',
  rank: 90,
  maxLength: 3 + 1500 + 1 + 5000 + 1 + 1500,
  pattern: JWT,
  needs: ['eyJ'],
  check: checkJwt,
  tail: { chars: charSet('A-Za-z0-9_.-'), prefixes: ['eyJ'] },
});
