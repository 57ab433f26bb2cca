/**
 * Verifies a signed JWT (an OpenID Connect ID token, a Cloudflare Access
 * assertion) with Web Crypto: RS256 or ES256 only (`none`, HMAC and every
 * other algorithm are refused, so a token cannot pick a key type the issuer
 * does not use), against the issuer's JWKS, then its claims: `iss` exactly,
 * `aud` containing ours (and `azp`, when present, ours), `exp` and `nbf` with
 * CLOCK_SKEW_S of tolerance, and the `nonce` when one is expected. The clock
 * is passed in; failures are values naming the reason.
 */
import * as z from 'zod';
import { fromBase64url } from '../../util/crypto';

export const CLOCK_SKEW_S = 60;
export const ALGORITHMS = ['RS256', 'ES256'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

/** A public key from a JWKS, as far as verification needs it. */
export const Jwk = z.looseObject({
  kty: z.string(),
  kid: z.string().optional(),
  alg: z.string().optional(),
  use: z.string().optional(),
  n: z.string().optional(),
  e: z.string().optional(),
  crv: z.string().optional(),
  x: z.string().optional(),
  y: z.string().optional(),
});
export type Jwk = z.infer<typeof Jwk>;

export type JwtFailure =
  | 'malformed'
  | 'algorithm'
  | 'unknown_key'
  | 'signature'
  | 'issuer'
  | 'audience'
  | 'expired'
  | 'not_yet_valid'
  | 'nonce';

export type JwtResult =
  | { ok: true; claims: Record<string, unknown> }
  | { ok: false; reason: JwtFailure; detail: string };

export interface Expected {
  issuer: string;
  audience: string;
  /** Epoch ms. */
  now: number;
  /** The nonce this sign-in sent; absent when none is expected (a bearer token, an Access assertion). */
  nonce?: string;
}

interface Decoded {
  header: { alg: string; kid?: string };
  claims: Record<string, unknown>;
  signingInput: Uint8Array;
  signature: Uint8Array;
}

const Header = z.object({ alg: z.string(), kid: z.string().optional() });
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The header, claims and signature of a compact JWS, or null when it is not one. */
export function decodeJwt(token: string): Decoded | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) return null;
  const [h = '', p = '', s = ''] = parts;
  try {
    const header = Header.safeParse(JSON.parse(decoder.decode(fromBase64url(h))));
    const claims: unknown = JSON.parse(decoder.decode(fromBase64url(p)));
    if (!header.success || !claims || typeof claims !== 'object' || Array.isArray(claims)) return null;
    return {
      header: header.data,
      claims: claims as Record<string, unknown>,
      signingInput: encoder.encode(`${h}.${p}`),
      signature: fromBase64url(s),
    };
  } catch {
    return null;
  }
}

/** Whether a string has the shape of a compact JWS (three base64url parts, a JSON header). */
export const looksLikeJwt = (token: string) =>
  /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);

const isAlgorithm = (alg: string): alg is Algorithm => (ALGORITHMS as readonly string[]).includes(alg);

function fits(jwk: Jwk, alg: Algorithm): boolean {
  if (jwk.alg !== undefined && jwk.alg !== alg) return false;
  if (jwk.use !== undefined && jwk.use !== 'sig') return false;
  return alg === 'RS256' ? jwk.kty === 'RSA' : jwk.kty === 'EC' && jwk.crv === 'P-256';
}

const imported = new WeakMap<Jwk, Promise<CryptoKey | null>>();

/** The key as Web Crypto takes it (only its public parameters), imported once per JWKS entry. */
function importKey(jwk: Jwk, alg: Algorithm): Promise<CryptoKey | null> {
  let key = imported.get(jwk);
  if (!key) {
    const params =
      alg === 'RS256' ? { kty: 'RSA', n: jwk.n, e: jwk.e } : { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
    const algorithm =
      alg === 'RS256'
        ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
        : { name: 'ECDSA', namedCurve: 'P-256' };
    key = crypto.subtle
      .importKey('jwk', params as JsonWebKey, algorithm, false, ['verify'])
      .catch(() => null);
    imported.set(jwk, key);
  }
  return key;
}

async function verifyWith(jwk: Jwk, alg: Algorithm, decoded: Decoded): Promise<boolean> {
  const key = await importKey(jwk, alg);
  if (!key) return false;
  const algorithm = alg === 'RS256' ? { name: 'RSASSA-PKCS1-v1_5' } : { name: 'ECDSA', hash: 'SHA-256' };
  return crypto.subtle.verify(algorithm, key, decoded.signature, decoded.signingInput).catch(() => false);
}

const fail = (reason: JwtFailure, detail: string): JwtResult => ({ ok: false, reason, detail });

/** The claims checks of a verified token (pure). */
export function checkClaims(claims: Record<string, unknown>, expected: Expected): JwtResult {
  const nowS = expected.now / 1000;
  if (claims.iss !== expected.issuer)
    return fail('issuer', `issued by '${String(claims.iss)}', not '${expected.issuer}'`);
  const aud = claims.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audiences.includes(expected.audience)) return fail('audience', `not meant for '${expected.audience}'`);
  if (claims.azp !== undefined && claims.azp !== expected.audience)
    return fail('audience', `authorized party '${String(claims.azp)}' is not '${expected.audience}'`);
  if (typeof claims.exp !== 'number') return fail('malformed', 'no exp claim');
  if (claims.exp + CLOCK_SKEW_S <= nowS) return fail('expired', 'the token has expired');
  if (claims.nbf !== undefined) {
    if (typeof claims.nbf !== 'number') return fail('malformed', 'nbf is not a number');
    if (claims.nbf - CLOCK_SKEW_S > nowS) return fail('not_yet_valid', 'the token is not valid yet');
  }
  if (expected.nonce !== undefined && claims.nonce !== expected.nonce)
    return fail('nonce', 'the nonce is not the one this sign-in sent');
  return { ok: true, claims };
}

/**
 * Verifies `token` with the keys `keysFor` returns for its `kid` (asked again with `refresh` when none of
 * them verifies it, so a rotated key is found), then its claims.
 */
export async function verifyJwt(
  token: string,
  keysFor: (kid: string | undefined, refresh: boolean) => Promise<readonly Jwk[]>,
  expected: Expected,
): Promise<JwtResult> {
  const decoded = decodeJwt(token);
  if (!decoded) return fail('malformed', 'not a signed JWT');
  const { alg, kid } = decoded.header;
  if (!isAlgorithm(alg)) return fail('algorithm', `algorithm '${alg}' is not accepted (RS256 or ES256)`);
  const usable = async (refresh: boolean) =>
    (await keysFor(kid, refresh)).filter((k) => fits(k, alg) && (kid === undefined || k.kid === kid));
  let candidates = await usable(false);
  // A kid not in the cached set (or no kid, and no cached key verifies) may be a rotated key: ask again.
  let verified = await anyVerifies(candidates, alg, decoded);
  if (!verified && (candidates.length === 0 || kid === undefined)) {
    candidates = await usable(true);
    verified = await anyVerifies(candidates, alg, decoded);
  }
  if (candidates.length === 0)
    return fail('unknown_key', `no ${alg} key${kid ? ` with kid '${kid}'` : ''} in the JWKS`);
  if (!verified) return fail('signature', 'the signature does not verify');
  return checkClaims(decoded.claims, expected);
}

async function anyVerifies(keys: readonly Jwk[], alg: Algorithm, decoded: Decoded): Promise<boolean> {
  for (const jwk of keys) if (await verifyWith(jwk, alg, decoded)) return true;
  return false;
}
