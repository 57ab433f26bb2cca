/**
 * Shows a new key's secret exactly once without resubmitting a form: the
 * create/rotate POST seals {key id, secret, expiry} with AES-GCM (key derived
 * from ADMIN_TOKEN, session id as additional data) into a cookie scoped to
 * /dashboard/keys and living FLASH_TTL_MS, then redirects; the GET page opens
 * it and deletes it in the same response. A reload finds nothing. The secret
 * never rests anywhere server-side, and the cookie is useless to another
 * session, after a token change, or once it has expired.
 */
import * as z from 'zod';
import { base64url } from '../util/crypto';
import { dashboardKeys } from './keys';
import { fromBase64url } from './session';

export const FLASH_COOKIE = 'edgeway_secret';
export const FLASH_PATH = '/dashboard/keys';
export const FLASH_TTL_MS = 2 * 60_000;

const Sealed = z.object({ k: z.string(), s: z.string(), e: z.number() });
const encoder = new TextEncoder();

export async function sealSecret(
  adminToken: string,
  sessionId: string,
  keyId: string,
  secret: string,
  now: number,
): Promise<string> {
  const { seal } = await dashboardKeys(adminToken);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = encoder.encode(JSON.stringify({ k: keyId, s: secret, e: now + FLASH_TTL_MS }));
  const box = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: encoder.encode(sessionId) },
      seal,
      plain,
    ),
  );
  const out = new Uint8Array(iv.length + box.length);
  out.set(iv);
  out.set(box, iv.length);
  return base64url(out);
}

/** The secret sealed for this key and session, or null (absent, tampered, foreign, expired). */
export async function openSecret(
  adminToken: string,
  sessionId: string,
  keyId: string,
  cookie: string | undefined,
  now: number,
): Promise<string | null> {
  if (!cookie || !/^[A-Za-z0-9_-]{40,2000}$/.test(cookie)) return null;
  const { seal } = await dashboardKeys(adminToken);
  const bytes = fromBase64url(cookie);
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: encoder.encode(sessionId) },
      seal,
      bytes.slice(12),
    );
    const parsed = Sealed.safeParse(JSON.parse(new TextDecoder().decode(plain)));
    return parsed.success && parsed.data.k === keyId && parsed.data.e > now ? parsed.data.s : null;
  } catch {
    return null;
  }
}
