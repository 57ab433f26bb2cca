/**
 * Synchronous SHA-256, for pure functions that must hash without awaiting
 * (Web Crypto's digest is async only). Native under nodejs_compat.
 */
import { createHash } from 'node:crypto';

export function sha256HexSync(input: string): string {
  return createHash('sha256').update(input).digest('hex');
}
