import { describe, expect, it } from 'vitest';
import { type CacheUnit, explicitCache, implicitCache } from '../../workers/mock-llm/src/prompt-cache';

const MINUTE = 60_000;
const units = (tag: string, ttl: '5m' | '1h'): CacheUnit[] => [
  { value: `${tag}-a`, tokens: 10 },
  { value: `${tag}-b`, tokens: 40, breakpoint: ttl },
  { value: `${tag}-c`, tokens: 50 },
];

describe('explicitCache', () => {
  it('writes up to the last breakpoint, reads it back until its TTL runs out', () => {
    const prompt = units(crypto.randomUUID(), '5m');
    expect(explicitCache('s', prompt, 0, 0)).toEqual({ read: 0, write5m: 40, write1h: 0 });
    expect(explicitCache('s', prompt, 0, 4 * MINUTE)).toEqual({ read: 40, write5m: 0, write1h: 0 });
    expect(explicitCache('s', prompt, 0, 10 * MINUTE)).toEqual({ read: 0, write5m: 40, write1h: 0 });
  });

  it('keeps a 1h breakpoint an hour, splits writes by TTL, and scopes entries', () => {
    const tag = crypto.randomUUID();
    const prompt: CacheUnit[] = [
      { value: `${tag}-a`, tokens: 30, breakpoint: '1h' },
      { value: `${tag}-b`, tokens: 70, breakpoint: '5m' },
    ];
    expect(explicitCache('s', prompt, 0, 0)).toEqual({ read: 0, write5m: 40, write1h: 30 });
    expect(explicitCache('s', prompt, 0, 30 * MINUTE)).toEqual({ read: 30, write5m: 40, write1h: 0 });
    expect(explicitCache('other-model', prompt, 0, 30 * MINUTE).read).toBe(0);
  });

  it('caches nothing below the minimum', () => {
    expect(explicitCache('s', units(crypto.randomUUID(), '5m'), 1024, 0)).toEqual({
      read: 0,
      write5m: 0,
      write1h: 0,
    });
  });
});

describe('implicitCache', () => {
  it('reads the longest remembered prefix, rounded down to the increment', () => {
    const tag = crypto.randomUUID();
    const first: CacheUnit[] = [
      { value: `${tag}-a`, tokens: 300 },
      { value: `${tag}-b`, tokens: 1300 },
    ];
    expect(implicitCache('s', first, 1024, 128, 0)).toBe(0);
    expect(implicitCache('s', [...first, { value: 'next', tokens: 1400 }], 1024, 128, MINUTE)).toBe(1280);
    expect(implicitCache('s', first, 1024, 128, 20 * MINUTE)).toBe(0);
  });
});
