import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, jsonDepth, tooDeep } from '../../../src/api/json-budget';

describe('jsonDepth', () => {
  it('measures the deepest nesting of arrays and objects', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{}')).toBe(1);
    expect(jsonDepth('{"a":[1,{"b":[]}],"c":{}}')).toBe(4);
    expect(jsonDepth(JSON.stringify(JSON.parse('[[[[[]]]],[[]]]')))).toBe(5);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(jsonDepth('["\\"[[[", "\\\\", [[]]]')).toBe(3);
    expect(jsonDepth(JSON.stringify({ s: `\\"${'['.repeat(100)}\\` }))).toBe(1);
  });

  it('stops as soon as the limit is passed, and tells the budget apart at its edge', () => {
    expect(jsonDepth('['.repeat(1000), 10)).toBe(11);
    expect(tooDeep('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).toBe(false);
    expect(tooDeep('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it('judges bodies with few brackets and bodies with many alike, mixing both kinds of bracket', () => {
    const mixed = (n: number) => {
      const open = Array.from({ length: n }, (_, i) => (i % 2 ? '{"k":' : '[')).join('');
      const close = Array.from({ length: n }, (_, i) => (i % 2 ? '}' : ']'))
        .reverse()
        .join('');
      return `${open}1${close}`;
    };
    expect(tooDeep(mixed(MAX_JSON_DEPTH))).toBe(false);
    expect(tooDeep(mixed(MAX_JSON_DEPTH + 1))).toBe(true);
    // Many brackets, all shallow or inside strings: more openers than the budget, never too deep.
    const wide = JSON.stringify({ a: Array.from({ length: 200 }, () => ({ s: '[{' })) });
    expect(tooDeep(wide)).toBe(false);
    expect(tooDeep(`{"s":"${'['.repeat(MAX_JSON_DEPTH + 5)}"}`)).toBe(false);
  });

  it('scans a 1 MB body in linear time', () => {
    const flat = JSON.stringify({ items: Array.from({ length: 50_000 }, (_, i) => ({ i, s: 'x[y]{z}' })) });
    expect(flat.length).toBeGreaterThan(1_000_000);
    const start = Date.now();
    for (let i = 0; i < 10; i++) expect(jsonDepth(flat)).toBe(3);
    expect(Date.now() - start).toBeLessThan(1_000);
  });
});
