/**
 * PKCE (RFC 7636) with S256, and the random state and nonce of one sign-in.
 * The verifier is 32 random bytes in base64url (43 characters, inside the
 * RFC's 43–128); the challenge is base64url(SHA-256(verifier)).
 */
import { base64url, randomToken } from '../../util/crypto';

export interface SignInSecrets {
  state: string;
  nonce: string;
  verifier: string;
}

export function newSignIn(): SignInSecrets {
  return { state: randomToken(24), nonce: randomToken(24), verifier: randomToken(32) };
}

export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}
