/** setCapped: an insertion-ordered memo that never holds more than its cap. */
import { describe, expect, it } from 'vitest';
import { setCapped } from '../../../src/util/capped-map';

describe('setCapped', () => {
  it('drops the oldest entry first once the cap is reached', () => {
    const map = new Map<string, number>();
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) setCapped(map, key, i, 3);
    expect([...map.keys()]).toEqual(['b', 'c', 'd']);
  });

  it('updates a key already present without dropping another', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    setCapped(map, 'a', 10, 2);
    expect([...map]).toEqual([
      ['a', 10],
      ['b', 2],
    ]);
  });
});
