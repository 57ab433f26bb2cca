/** The wrong-admin-token policy (pure): windows, blocks and who a client is. */
import { describe, expect, it } from 'vitest';
import { clientOf, NO_ADDRESS } from '../../../../src/admin/access/throttle';
import {
  addFailure,
  forgetAt,
  THROTTLE_BLOCK_MS,
  THROTTLE_LIMIT,
  THROTTLE_WINDOW_MS,
  type FailureWindow,
} from '../../../../src/core/throttle-protocol';

function failures(times: number[]): FailureWindow | null {
  let w: FailureWindow | null = null;
  for (const t of times) w = addFailure(w, t);
  return w;
}

describe('addFailure', () => {
  it(`blocks on the ${THROTTLE_LIMIT}th failure within a window, for THROTTLE_BLOCK_MS`, () => {
    const nine = failures(Array.from({ length: THROTTLE_LIMIT - 1 }, (_, i) => 1000 + i));
    expect(nine).toMatchObject({ count: THROTTLE_LIMIT - 1, blockedUntil: 0 });
    const ten = addFailure(nine, 5000);
    expect(ten).toEqual({ start: 1000, count: THROTTLE_LIMIT, blockedUntil: 5000 + THROTTLE_BLOCK_MS });
    expect(forgetAt(ten)).toBe(5000 + THROTTLE_BLOCK_MS);
  });

  it('starts a new window once the old one is over', () => {
    const spread = failures(Array.from({ length: 30 }, (_, i) => i * (THROTTLE_WINDOW_MS / 5)));
    expect(spread?.blockedUntil).toBe(0);
    expect(spread?.count).toBeLessThan(THROTTLE_LIMIT);
  });

  it('keeps a block that outlives its window', () => {
    const blocked = failures(Array.from({ length: THROTTLE_LIMIT }, (_, i) => i));
    const later = addFailure(blocked, THROTTLE_WINDOW_MS + 1);
    expect(later.count).toBe(1);
    expect(later.blockedUntil).toBe(THROTTLE_LIMIT - 1 + THROTTLE_BLOCK_MS);
  });
});

describe('clientOf', () => {
  const of = (ip?: string) => clientOf(new Headers(ip === undefined ? {} : { 'cf-connecting-ip': ip }));

  it('is the IPv4 address as is', () => {
    expect(of('203.0.113.7')).toBe('203.0.113.7');
    expect(of('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    expect(of('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(of('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(of('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(of('::1')).toBe('0:0:0:0::/64');
  });

  it('falls back to one fixed bucket without a usable address', () => {
    for (const ip of [undefined, '', 'localhost', 'x'.repeat(60), '1.2.3']) expect(of(ip)).toBe(NO_ADDRESS);
  });
});
