/** Request ids (UUIDv7): the right version and variant bits, time-ordered, the time read back. */
import { describe, expect, it } from 'vitest';
import { uuid7, uuid7Time } from '../../../src/util/uuid7';

describe('uuid7', () => {
  it('is a version-7, variant-1 UUID whose first 48 bits are the time', () => {
    const t = Date.UTC(2026, 10, 23, 7, 45, 1, 234);
    const id = uuid7(t);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuid7Time(id)).toBe(t);
  });

  it('sorts by time, and two ids of one millisecond differ', () => {
    const ids = [3, 1, 2].map((d) => uuid7(1_790_000_000_000 + d));
    expect([...ids].sort().map(uuid7Time)).toEqual([1_790_000_000_001, 1_790_000_000_002, 1_790_000_000_003]);
    expect(uuid7(5)).not.toBe(uuid7(5));
  });

  it('never repeats random bits across its pool refills (1,000 ids of one millisecond, all distinct)', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => uuid7(7)));
    expect(ids.size).toBe(1000);
    const tails = new Set([...ids].map((id) => id.slice(14)));
    expect(tails.size).toBe(1000);
  });

  it('reads no time from anything else', () => {
    expect(uuid7Time(crypto.randomUUID())).toBeNull();
    expect(uuid7Time('req-1')).toBeNull();
  });
});
