/**
 * Who a client is, for the wrong-admin-token throttle (pure): its failures are
 * counted per address by the rule in src/core/throttle-protocol.ts.
 */

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
