/** SSO test helpers: signing keys made with Web Crypto, their JWKS, and JWTs signed with them. */
import type { Jwk } from '../../src/admin/sso/jwt';
import { base64url } from '../../src/util/crypto';

export interface TestKey {
  alg: 'RS256' | 'ES256';
  kid: string;
  privateKey: CryptoKey;
  jwk: Jwk;
}

export async function makeKey(alg: 'RS256' | 'ES256', kid: string): Promise<TestKey> {
  const params =
    alg === 'RS256'
      ? {
          name: 'RSASSA-PKCS1-v1_5',
          modulusLength: 2048,
          publicExponent: new Uint8Array([1, 0, 1]),
          hash: 'SHA-256',
        }
      : { name: 'ECDSA', namedCurve: 'P-256' };
  const pair = (await crypto.subtle.generateKey(params, true, ['sign', 'verify'])) as CryptoKeyPair;
  const pub = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey;
  const jwk: Jwk =
    alg === 'RS256'
      ? { kty: 'RSA', n: pub.n, e: pub.e, kid, alg, use: 'sig' }
      : { kty: 'EC', crv: 'P-256', x: pub.x, y: pub.y, kid, alg, use: 'sig' };
  return { alg, kid, privateKey: pair.privateKey, jwk };
}

const part = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

/** A compact JWS of `claims` signed with `key` (header overrides let tests forge alg or kid). */
export async function signJwt(
  key: TestKey,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const input = `${part({ alg: key.alg, typ: 'JWT', kid: key.kid, ...header })}.${part(claims)}`;
  const algorithm = key.alg === 'RS256' ? { name: 'RSASSA-PKCS1-v1_5' } : { name: 'ECDSA', hash: 'SHA-256' };
  const sig = await crypto.subtle.sign(algorithm, key.privateKey, new TextEncoder().encode(input));
  return `${input}.${base64url(new Uint8Array(sig))}`;
}

/** Claims valid for `audience` from `issuer` at `nowMs` for an hour. */
export function claimsFor(
  issuer: string,
  audience: string,
  nowMs: number,
  extra: Record<string, unknown> = {},
) {
  const iat = Math.floor(nowMs / 1000);
  return { iss: issuer, aud: audience, sub: 'user-1', iat, exp: iat + 3600, ...extra };
}
