import { describe, expect, it } from 'vitest';
import { canonicalJson, exactCacheKey } from '../../../src/cache/key';

describe('canonicalJson without recursion', () => {
  it('writes 100,000 levels of nesting without overflowing the stack', () => {
    const depth = 100_000;
    const deep = JSON.parse(`${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`);
    const text = canonicalJson(deep);
    expect(text.length).toBe(depth * 8 + 1);
    expect(text.startsWith('{"a":[{"a":[')).toBe(true);
  });

  it('matches JSON.stringify with sorted keys, undefined members dropped and undefined items null', () => {
    const value = { b: [1, undefined, 'x', { d: null, c: true }], a: { z: [], y: {} }, u: undefined };
    expect(canonicalJson(value)).toBe('{"a":{"y":{},"z":[]},"b":[1,null,"x",{"c":true,"d":null}]}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson('s"')).toBe('"s\\""');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('keys a deep body without throwing', async () => {
    const body = JSON.parse(`{"messages":${'['.repeat(20_000)}${']'.repeat(20_000)}}`);
    const key = await exactCacheKey({
      tenantId: 't',
      provider: 'p',
      endpoint: 'chat',
      model: 'm',
      body,
      namespace: null,
    });
    expect(key).toMatch(/^v1:t:[0-9a-f]{64}$/);
  });
});
