/**
 * The policy for wrong admin tokens (pure): who a client is, and when its
 * failures block it. Both doors that take ADMIN_TOKEN (the admin API and the
 * dashboard sign-in) guess the same secret, so they share one count per client:
 * THROTTLE_LIMIT failures within THROTTLE_WINDOW_MS block the client for
 * THROTTLE_BLOCK_MS, during which even the right token is refused (otherwise a
 * 429 would still tell a wrong guess from a right one). The numbers and the
 * store's calls are the protocol's (throttle-protocol.ts).
 */
import {
  type FailureWindow,
  THROTTLE_BLOCK_MS,
  THROTTLE_LIMIT,
  THROTTLE_WINDOW_MS,
} from './throttle-protocol';

export function addFailure(w: FailureWindow | null, now: number): FailureWindow {
  const fresh = !w || now - w.start >= THROTTLE_WINDOW_MS;
  const start = fresh ? now : w.start;
  const count = (fresh ? 0 : w.count) + 1;
  const blockedUntil = count >= THROTTLE_LIMIT ? now + THROTTLE_BLOCK_MS : (w?.blockedUntil ?? 0);
  return { start, count, blockedUntil };
}

/** When the window can be forgotten: its block and its count have both run out. */
export function forgetAt(w: FailureWindow): number {
  return Math.max(w.start + THROTTLE_WINDOW_MS, w.blockedUntil);
}

/** Requests with no address (in-process dashboard calls, local tools) share this bucket. */
export const NO_ADDRESS = 'no-address';

/**
 * The client a request comes from: Cloudflare's `cf-connecting-ip` (set by the
 * edge, not forgeable there), IPv4 as is, IPv6 by its /64 (one subscriber's
 * usual allocation, so rotating addresses inside it gains nothing).
 */
export function clientOf(headers: Headers): string {
  const ip = headers.get('cf-connecting-ip')?.trim().toLowerCase() ?? '';
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) return ip;
  if (/^[0-9a-f:.]{2,45}$/.test(ip) && ip.includes(':')) return ipv6Prefix(ip);
  return NO_ADDRESS;
}

function ipv6Prefix(ip: string): string {
  const v4 = /(\d{1,3}(\.\d{1,3}){3})$/.exec(ip);
  if (v4?.[1] && ip.startsWith('::ffff:')) return v4[1];
  const [head = '', tail] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros =
    tail === undefined ? [] : Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0');
  const groups = [...left, ...zeros, ...right].slice(0, 4).map((g) => g.replace(/^0+(?=.)/, ''));
  return `${groups.join(':')}::/64`;
}
