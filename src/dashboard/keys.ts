/**
 * The dashboard's keys, derived with HKDF-SHA256 from ADMIN_TOKEN: one HMAC
 * key for sessions and CSRF tokens, one AES-GCM key for the one-time secret
 * cookie. Deriving (not storing) them means changing ADMIN_TOKEN invalidates
 * every session and pending secret at once. Memoized per token per isolate.
 */
const encoder = new TextEncoder();
const SALT = encoder.encode('edgeway/dashboard');

export interface DashboardKeys {
  mac: CryptoKey;
  seal: CryptoKey;
}

let memo: { token: string; keys: Promise<DashboardKeys> } | null = null;

export function dashboardKeys(adminToken: string): Promise<DashboardKeys> {
  if (memo?.token !== adminToken) memo = { token: adminToken, keys: derive(adminToken) };
  return memo.keys;
}

async function derive(adminToken: string): Promise<DashboardKeys> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(adminToken), 'HKDF', false, ['deriveKey']);
  const hkdf = (info: string) => ({ name: 'HKDF', hash: 'SHA-256', salt: SALT, info: encoder.encode(info) });
  const [mac, seal] = await Promise.all([
    crypto.subtle.deriveKey(
      hkdf('session-mac-v1'),
      base,
      { name: 'HMAC', hash: 'SHA-256', length: 256 },
      false,
      ['sign', 'verify'],
    ),
    crypto.subtle.deriveKey(hkdf('secret-seal-v1'), base, { name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]),
  ]);
  return { mac, seal };
}
