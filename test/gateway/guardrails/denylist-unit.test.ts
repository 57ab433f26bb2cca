import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldString, isWordAt, isWordBefore } from '../../../src/guardrails/denylist/chars';
import {
  compileDenyList,
  denyFinderFor,
  MAX_LIST_PROGRAM,
  UNBOUNDED_SPAN,
  validateDenyList,
} from '../../../src/guardrails/denylist/denylist';

const spans = (text: string, terms: string[], patterns: string[] = []) =>
  compileDenyList({ terms, patterns })
    .find(text)
    .map((f) => text.slice(f.start, f.end));

describe('validateDenyList', () => {
  it('accepts a list of terms and linear-time patterns', () => {
    expect(
      validateDenyList({ terms: ['acme secret', '$$$'], patterns: ['\\bproj-\\d{4}\\b', 'foo(bar|baz)+'] }),
    ).toEqual([]);
  });

  it('names the index and the problem of each refused entry, without echoing the pattern', () => {
    const problems = validateDenyList({
      terms: ['ok', '   '],
      patterns: ['fine', 'CONFIDENTIALMARKER(?=x)', 'x(y', 'a*'],
    });
    expect(problems).toEqual([
      'terms[1]: a term must contain more than white space',
      'patterns[1]: lookahead is not supported (at position 18)',
      "patterns[2]: missing ')' for the group opened here (at position 1)",
      'patterns[3]: the pattern can match empty text, so it would match everywhere (at position 0)',
    ]);
    expect(problems.join('\n')).not.toContain('CONFIDENTIALMARKER');
  });

  it('refuses patterns that together exceed the list’s program size', () => {
    // Each 201 instructions or a little less (2 per repeat): fine alone, too many together.
    const patterns = Array.from({ length: 6 }, (_, i) => `(?:[a-z]x){${100 - i}}`);
    for (const pattern of patterns) expect(validateDenyList({ terms: [], patterns: [pattern] })).toEqual([]);
    const problems = validateDenyList({ terms: [], patterns });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      new RegExp(`^patterns: together they need 1176 instructions, above .* ${MAX_LIST_PROGRAM}$`),
    );
    expect(validateDenyList({ terms: [], patterns: patterns.slice(0, 5) })).toEqual([]);
  });
});

describe('compileDenyList', () => {
  it('finds terms and patterns case-insensitively, terms as whole words', () => {
    expect(
      spans('Class ASS; call 555-1234 or PROJ-0042.', ['ass'], ['\\d{3}-\\d{4}', '\\bproj-\\d+']),
    ).toEqual(['ASS', '555-1234', 'PROJ-0042']);
  });

  it('chooses leftmost-longest across terms and patterns, never overlapping', () => {
    expect(spans('foo bar baz', ['foo bar'], ['bar\\s+baz'])).toEqual(['foo bar']);
    expect(spans('abc abd', ['ab'], ['a\\w+'])).toEqual(['abc', 'abd']);
    expect(spans('say badword now', ['bad'], ['bad\\w*'])).toEqual(['badword']);
  });

  it('bounds every span by maxLength, splitting the rare longer match of an unbounded pattern', () => {
    const finder = compileDenyList({ terms: [], patterns: ['x+'] });
    expect(finder.maxLength).toBe(UNBOUNDED_SPAN);
    const found = finder.find(`a${'x'.repeat(600)}a`);
    expect(found.map((f) => [f.start, f.end])).toEqual([
      [1, 257],
      [257, 513],
      [513, 601],
    ]);
  });

  it('reports the longest possible match as maxLength', () => {
    expect(compileDenyList({ terms: ['abc', 'abcdefgh'], patterns: [] }).maxLength).toBe(8);
    expect(compileDenyList({ terms: ['abc'], patterns: ['\\d{3}-\\d{4}'] }).maxLength).toBe(8);
    expect(compileDenyList({ terms: ['abc'], patterns: ['a{200}'] }).maxLength).toBe(200);
    expect(compileDenyList({ terms: ['abc'], patterns: ['a{200}', 'b+'] }).maxLength).toBe(UNBOUNDED_SPAN);
    expect(compileDenyList({ terms: ['abc'], patterns: ['b+'] }).maxLength).toBe(UNBOUNDED_SPAN);
    expect(compileDenyList({ terms: ['x'.repeat(200), 'x'.repeat(199)], patterns: ['b'] }).maxLength).toBe(
      200,
    );
  });

  it('skips entries that no longer pass validation and says why', () => {
    const finder = compileDenyList({ terms: ['bad', ' '], patterns: ['(a)\\1', 'worse'] });
    expect(finder.problems).toHaveLength(2);
    expect(finder.find('bad, worse')).toEqual([
      { kind: 'deny', start: 0, end: 3 },
      { kind: 'deny', start: 5, end: 10 },
    ]);
  });

  it('compiles each distinct list once, keeping the 64 most recently used', () => {
    const list = { terms: ['memo-term'], patterns: ['memo\\d'] };
    const first = compileDenyList(list);
    expect(compileDenyList({ terms: ['memo-term'], patterns: ['memo\\d'] })).toBe(first);
    for (let i = 0; i < 64; i++) compileDenyList({ terms: [`other-${i}`], patterns: [] });
    expect(compileDenyList(list)).not.toBe(first);
  });

  it('denyFinderFor gives null for an empty list', () => {
    expect(denyFinderFor({ terms: [], patterns: [] })).toBeNull();
    expect(denyFinderFor({ terms: ['x'], patterns: [] })?.find('a x b')).toEqual([
      { kind: 'deny', start: 2, end: 3 },
    ]);
  });

  it('agrees with a brute-force leftmost-longest choice over random lists and texts', () => {
    const PATTERNS = ['a[bc]+', '\\bb\\w', 'c.a', 'ab|abc', '(?:a|b){2,3}', 'x+'];
    const unit = fc.constantFrom('a', 'b', 'c', 'A', 'x', ' ', '-');
    const word = fc.array(unit, { minLength: 1, maxLength: 4 }).map((u) => u.join(''));
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 5 }),
        fc.subarray(PATTERNS),
        fc.array(unit, { maxLength: 30 }).map((u) => u.join('')),
        (rawTerms, patterns, text) => {
          const terms = rawTerms.filter((t) => t.trim() !== '');
          const finder = compileDenyList({ terms, patterns });
          const longest = new Array<number>(text.length + 1).fill(0);
          for (let p = 0; p < text.length; p++) {
            for (const term of terms) {
              const end = p + term.length;
              if (end > text.length || foldString(text.slice(p, end)) !== foldString(term)) continue;
              if (isWordAt(term, 0) && isWordBefore(text, p)) continue;
              if (isWordBefore(term, term.length) && isWordAt(text, end)) continue;
              longest[p] = Math.max(longest[p]!, end);
            }
            for (const pattern of patterns) {
              for (let end = text.length; end > longest[p]!; end--) {
                const re = new RegExp(`(?:${pattern})(?<=^[\\s\\S]{${end}})`, 'iy');
                re.lastIndex = p;
                if (re.test(text)) longest[p] = end;
              }
            }
          }
          const expected: [number, number][] = [];
          for (let p = 0; p < text.length; ) {
            const end = longest[p]!;
            if (end === 0) p++;
            else {
              for (let s = p; s < end; s += finder.maxLength)
                expected.push([s, Math.min(end, s + finder.maxLength)]);
              p = end;
            }
          }
          expect(finder.find(text).map((f) => [f.start, f.end])).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
