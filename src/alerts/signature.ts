/**
 * Webhook signatures for budget alerts, in the shape Stripe made familiar:
 * `x-edgeway-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 * Each tenant has its own signing secret, derived from the deployment's ALERT_SIGNING_SECRET and the
 * tenant id (HMAC, so nothing is stored and one tenant's secret tells nothing of another's); rotating
 * the deployment secret rotates every tenant's. The timestamp lets a receiver refuse replays.
 */
import { secretsEqual, toHex } from '../util/crypto';

export const SIGNATURE_HEADER = 'x-edgeway-signature';
/** How old a signature a receiver should still accept (seconds), as docs/alerts.md recommends. */
export const SIGNATURE_TOLERANCE_S = 300;

const encoder = new TextEncoder();

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message))));
}

/** The tenant's webhook signing secret, as the admin API shows it. */
export async function tenantSigningSecret(deploymentSecret: string, tenantId: string): Promise<string> {
  return `whsec_${await hmacHex(deploymentSecret, `edgeway-alert-webhook:${tenantId}`)}`;
}

/** The signature header's value for `body` sent at `unixSeconds`. */
export async function signatureHeader(secret: string, body: string, unixSeconds: number): Promise<string> {
  return `t=${unixSeconds},v1=${await hmacHex(secret, `${unixSeconds}.${body}`)}`;
}

/** A receiver's check: a v1 signature of this body by this secret, no older than the tolerance. */
export async function verifySignature(
  secret: string,
  header: string | null,
  body: string,
  nowSeconds: number,
): Promise<boolean> {
  if (!header) return false;
  const parts = new Map(
    header.split(',').map((part) => {
      const eq = part.indexOf('=');
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1');
  if (!Number.isSafeInteger(t) || !v1 || Math.abs(nowSeconds - t) > SIGNATURE_TOLERANCE_S) return false;
  return secretsEqual(v1, await hmacHex(secret, `${t}.${body}`));
}
