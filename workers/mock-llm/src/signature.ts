/**
 * Signatures the mock issues for reasoning it returns (Anthropic `thinking`
 * blocks and `redacted_thinking` data, Bedrock `reasoningContent`, Gemini
 * `thoughtSignature`) and checks when a client sends them back, as the real
 * providers reject a modified thinking block. A token is base64 of a 12-byte
 * nonce and an HMAC-SHA256 (Web Crypto, fixed mock secret) over the kind, the
 * nonce and the text as returned, so an omitted thinking (`""`) still verifies
 * and no two answers share a signature. The key is imported on first use only.
 * OpenAI's `encrypted_content` is sealed instead (`seal`/`unseal`): the token
 * followed by the text itself, so it stands alone when a client sends it back.
 */

const SECRET = 'edgeway-mock-llm/reasoning-signature/v1';
const NONCE_BYTES = 12;
const MAC_BYTES = 32;
const encoder = new TextEncoder();

let hmacKey: Promise<CryptoKey> | undefined;
const key = (): Promise<CryptoKey> =>
  (hmacKey ??= crypto.subtle.importKey(
    'raw',
    encoder.encode(SECRET),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  ));

/** What a signature vouches for; a thinking signature never verifies a redacted block. */
export type SignedKind = 'thinking' | 'redacted' | 'thought' | 'reasoning';

function message(kind: SignedKind, nonce: Uint8Array, text: string): Uint8Array {
  const head = encoder.encode(`${kind}\n`);
  const body = encoder.encode(text);
  const out = new Uint8Array(head.length + nonce.length + body.length);
  out.set(head);
  out.set(nonce, head.length);
  out.set(body, head.length + nonce.length);
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** A token for `text`; `seed` (any number from the request) makes the nonce, so the same answer gets the same token. */
export async function sign(kind: SignedKind, text: string, seed: number): Promise<string> {
  const nonce = new Uint8Array(NONCE_BYTES);
  const view = new DataView(nonce.buffer);
  view.setUint32(0, seed >>> 0);
  view.setUint32(4, Math.imul(seed, 0x9e3779b1) >>> 0);
  view.setUint32(8, text.length);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await key(), message(kind, nonce, text)));
  const out = new Uint8Array(NONCE_BYTES + MAC_BYTES);
  out.set(nonce);
  out.set(mac, NONCE_BYTES);
  return toBase64(out);
}

/** True when `token` is one the mock issued for exactly this kind and text. */
export async function verify(kind: SignedKind, text: string, token: unknown): Promise<boolean> {
  if (typeof token !== 'string') return false;
  const bytes = fromBase64(token);
  if (bytes === null || bytes.length !== NONCE_BYTES + MAC_BYTES) return false;
  const nonce = bytes.subarray(0, NONCE_BYTES);
  return crypto.subtle.verify('HMAC', await key(), bytes.subarray(NONCE_BYTES), message(kind, nonce, text));
}

/** A signed item a request carries back: where it is (for the error), what it vouches for, and the token. */
export interface SignedItem {
  readonly at: string;
  readonly kind: SignedKind;
  readonly text: string;
  readonly token: unknown;
}

/** The first item whose token the mock did not issue, or null when all verify (no work for none). */
export async function firstForged(items: readonly SignedItem[]): Promise<SignedItem | null> {
  for (const item of items) if (!(await verify(item.kind, item.text, item.token))) return item;
  return null;
}

/**
 * An opaque blob carrying `text` and its signature (OpenAI's reasoning `encrypted_content`):
 * base64 of the nonce, the HMAC and the UTF-8 text. `unseal` gives the text back.
 */
export async function seal(kind: SignedKind, text: string, seed: number): Promise<string> {
  const token = fromBase64(await sign(kind, text, seed)) as Uint8Array;
  const body = encoder.encode(text);
  const out = new Uint8Array(token.length + body.length);
  out.set(token);
  out.set(body, token.length);
  return toBase64(out);
}

/** The text a sealed blob carries, or null when the mock did not seal it (or it was altered). */
export async function unseal(kind: SignedKind, blob: unknown): Promise<string | null> {
  if (typeof blob !== 'string') return null;
  const bytes = fromBase64(blob);
  if (bytes === null || bytes.length < NONCE_BYTES + MAC_BYTES) return null;
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let body: string;
  try {
    body = text.decode(bytes.subarray(NONCE_BYTES + MAC_BYTES));
  } catch {
    return null;
  }
  return (await verify(kind, body, toBase64(bytes.subarray(0, NONCE_BYTES + MAC_BYTES)))) ? body : null;
}
