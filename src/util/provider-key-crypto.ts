/**
 * The envelope for tenants' own provider keys (BYOK): AES-256-GCM under a key
 * derived from the PROVIDER_KEYS_SECRET secret with HKDF-SHA256 (Web Crypto).
 * Each seal uses a fresh random 96-bit IV, and binds `tenant\nprovider` as
 * associated data, so a ciphertext copied to another tenant or provider does
 * not open. Used by the admin store (seal) and the hot path (open).
 */

/** HKDF parameters: fixed, versioned, so a future scheme can be told apart. */
const HKDF_SALT = new TextEncoder().encode('edgeway/tenant-provider-keys');
const HKDF_INFO = new TextEncoder().encode('aes-256-gcm v1');
/** A secret shorter than this is refused as unusable (`openssl rand -base64 32` gives 44). */
export const MIN_SECRET_CHARS = 32;

export interface SealedKey {
  /** Base64 ciphertext with its 16-byte GCM tag. */
  readonly ciphertext: string;
  /** Base64 96-bit IV. */
  readonly iv: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The derived key of the last secret seen: one derivation per isolate (and per secret, in tests). */
let derived: { secret: string; key: Promise<CryptoKey> } | null = null;

/** Why a secret cannot be used, or null when it can. */
export function secretProblem(secret: string | undefined): string | null {
  if (!secret) return 'the PROVIDER_KEYS_SECRET secret is not set';
  if (secret.length < MIN_SECRET_CHARS)
    return `PROVIDER_KEYS_SECRET is shorter than ${MIN_SECRET_CHARS} characters`;
  return null;
}

function keyFor(secret: string): Promise<CryptoKey> {
  if (derived?.secret !== secret) {
    const key = crypto.subtle
      .importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey'])
      .then((material) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info: HKDF_INFO },
          material,
          { name: 'AES-GCM', length: 256 },
          false,
          ['encrypt', 'decrypt'],
        ),
      );
    derived = { secret, key };
  }
  return derived.key;
}

const aad = (tenantId: string, providerId: string) => encoder.encode(`${tenantId}\n${providerId}`);

export async function sealProviderKey(
  secret: string,
  tenantId: string,
  providerId: string,
  plaintext: string,
): Promise<SealedKey> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: aad(tenantId, providerId) },
    await keyFor(secret),
    encoder.encode(plaintext),
  );
  return { ciphertext: toBase64(new Uint8Array(ciphertext)), iv: toBase64(iv) };
}

/** The plaintext key; rejects when the secret, the tenant, the provider or the bytes are not the sealed ones. */
export async function openProviderKey(
  secret: string,
  tenantId: string,
  providerId: string,
  sealed: SealedKey,
): Promise<string> {
  const plaintext = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: aad(tenantId, providerId) },
    await keyFor(secret),
    fromBase64(sealed.ciphertext),
  );
  return decoder.decode(plaintext);
}

/** What may be shown of a key: its first 3 and last 4 characters when it is long enough, else the last 2. */
export function providerKeyHint(key: string): string {
  return key.length >= 16 ? `${key.slice(0, 3)}…${key.slice(-4)}` : `…${key.slice(-2)}`;
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
