/** The archive objects' Bloom filter (pure): no false negatives, few false positives, bounded size. */
import { describe, expect, it } from 'vitest';
import { bloomHas, bloomOf } from '../../../../src/logs/archive/bloom';
import { uuid7 } from '../../../../src/util/uuid7';

describe('bloom filter', () => {
  it.each([1, 20, 50, 400, 5000])('holds every id of a set of %i', (n) => {
    const ids = Array.from({ length: n }, (_, i) => uuid7(1_790_000_000_000 + i));
    const filter = bloomOf(ids);
    expect(ids.filter((id) => !bloomHas(filter, id))).toEqual([]);
    expect(filter.length).toBeLessThanOrEqual(1366);
  });

  it('rules out almost every other id at the sizes batches have', () => {
    const filter = bloomOf(Array.from({ length: 50 }, (_, i) => uuid7(1_790_000_000_000 + i)));
    const others = Array.from({ length: 10_000 }, (_, i) => uuid7(1_790_000_100_000 + i));
    const falsePositives = others.filter((id) => bloomHas(filter, id)).length;
    expect(falsePositives / others.length).toBeLessThan(0.05);
  });

  it('a malformed filter answers maybe, never no', () => {
    expect(bloomHas('***', 'x')).toBe(true);
    expect(bloomHas('', 'x')).toBe(true);
  });
});
