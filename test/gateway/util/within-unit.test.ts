/** within: a promise bounded in time, its timer cleared either way. */
import { describe, expect, it, vi } from 'vitest';
import { within } from '../../../src/util/within';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('within', () => {
  it('settles as the promise does when it is in time, and clears its timer', async () => {
    const clear = vi.spyOn(globalThis, 'clearTimeout');
    expect(await within(1000, Promise.resolve('answer'))).toBe('answer');
    await expect(within(1000, Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(clear).toHaveBeenCalledTimes(2);
    clear.mockRestore();
  });

  it('answers the fallback once the time is up, and ignores the promise settling later', async () => {
    const started = Date.now();
    expect(await within(30, later(300, 'late'), () => 'fallback')).toBe('fallback');
    expect(Date.now() - started).toBeLessThan(250);
  });

  it('rejects with "no answer within" without a fallback, and with what a failing fallback throws', async () => {
    await expect(within(10, later(200, 'late'))).rejects.toThrow('no answer within 10 ms');
    await expect(
      within(10, later(200, 'late'), () => {
        throw new Error('fallback failed');
      }),
    ).rejects.toThrow('fallback failed');
  });
});
