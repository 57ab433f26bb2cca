import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkPattern,
  compilePatterns,
  MAX_PROGRAM_SIZE,
} from '../../../src/guardrails/denylist/regex/pattern';

/** The end of the longest match starting at each offset (0: none), by our engine; null when refused. */
function longestByEngine(source: string, text: string): number[] | null {
  const checked = checkPattern(source);
  if (!checked.ok) return null;
  const longest = new Int32Array(text.length + 1);
  compilePatterns([checked.pattern]).longestMatches(text, longest);
  return [...longest];
}

/**
 * The same table from JavaScript's backtracking engine (exhaustive, so exact): a sticky match at p that ends
 * exactly at e is forced with a lookbehind on the absolute offset, and "no longer match" likewise.
 */
function longestByJs(source: string, text: string): number[] {
  const test = (suffix: string, p: number) => {
    const re = new RegExp(`(?:${source})${suffix}`, 'iy');
    re.lastIndex = p;
    return re.test(text);
  };
  return Array.from({ length: text.length + 1 }, (_, p) => {
    if (!test('', p)) return 0;
    for (let e = text.length; e > p; e--) if (test(`(?<=^[\\s\\S]{${e}})`, p)) return e;
    return 0;
  });
}

// A generated subset on which our semantics and JavaScript's (flags "i", no "u") agree. Word escapes and
// boundaries are Unicode-aware here but ASCII-only in JavaScript, so texts stay ASCII when a pattern uses them.
const LITERALS = ['a', 'b', 'c', 'A', 'x', '1', ' ', '-', '\\.', '\\-', '\\n'];
const WIDE_LITERALS = ['é', 'É', 'σ', 'ς', 'Σ'];
const SETS = ['.', '\\d', '\\D', '\\s', '\\S', '[a-c]', '[^ab]', '[xA-B]', '[.-]', '[^\\s]', '[\\d ]'];
const WORDY = ['\\w', '\\W', '[\\w-]', '[^\\W]'];
const ANCHORS = ['^', '$'];
const BOUNDARIES = ['\\b', '\\B'];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{1,}', '{0,2}', '{1,3}', '*?', '+?', '??'];

const pattern = (wide: boolean) =>
  fc
    .letrec<{ node: string; atom: string }>((tie) => ({
      atom: fc.oneof(
        fc.constantFrom(...LITERALS, ...SETS, ...(wide ? WIDE_LITERALS : WORDY)),
        tie('node').map((n) => `(?:${n})`),
        tie('node').map((n) => `(${n})`),
      ),
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        tie('atom'),
        fc.tuple(tie('atom'), fc.constantFrom(...QUANTIFIERS)).map(([a, q]) => a + q),
        fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((items) => items.join('')),
        fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((items) => items.join('|')),
        fc.constantFrom(...ANCHORS, ...(wide ? [] : BOUNDARIES)),
      ),
    }))
    .node.chain((node) =>
      // Half the time with one required unit at either end, so fewer patterns match empty text (refused).
      fc.oneof(
        fc.constant(node),
        fc.constantFrom(...LITERALS, ...SETS).map((unit) => node + unit),
        fc.constantFrom(...LITERALS, ...SETS).map((unit) => unit + node),
      ),
    );

const text = (wide: boolean) =>
  fc
    .array(
      fc.constantFrom('a', 'b', 'c', 'A', 'B', 'x', '1', ' ', '-', '.', '\n', ...(wide ? WIDE_LITERALS : [])),
      {
        maxLength: 12,
      },
    )
    .map((units) => units.join(''));

describe('the pattern engine against JavaScript RegExp', () => {
  for (const wide of [false, true]) {
    it(`finds the same longest match at every offset (${wide ? 'non-ASCII letters' : 'word escapes'})`, () => {
      let compared = 0;
      fc.assert(
        fc.property(pattern(wide), fc.array(text(wide), { minLength: 1, maxLength: 4 }), (source, texts) => {
          const checked = checkPattern(source);
          // Patterns that can match empty text (and repeated bare anchors) are refused: nothing to compare.
          if (!checked.ok) {
            expect(checked.error.message).toMatch(/empty text|cannot be repeated/);
            return;
          }
          for (const t of texts)
            expect(longestByEngine(source, t), `${source} on ${JSON.stringify(t)}`).toEqual(
              longestByJs(source, t),
            );
          compared++;
        }),
        { numRuns: 400 },
      );
      expect(compared).toBeGreaterThan(200);
    });
  }

  it('returns the longest match, lazy quantifiers included, where JavaScript returns the first', () => {
    expect(longestByEngine('a|ab', 'xab')).toEqual([0, 3, 0, 0]);
    expect(longestByEngine('a+?', 'aaa')).toEqual([3, 3, 3, 0]);
    expect(longestByEngine('colou?r', 'Colour COLOR')).toEqual([6, 0, 0, 0, 0, 0, 0, 12, 0, 0, 0, 0, 0]);
  });

  it('reads anchors against the whole text and \\b against Unicode word characters', () => {
    expect(longestByEngine('^ab|cd$', 'abcd ab cd')).toEqual([2, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0]);
    expect(longestByEngine('\\bna\\b', 'naïve na')).toEqual([0, 0, 0, 0, 0, 0, 8, 0, 0]);
    expect(longestByEngine('\\w+', 'été!')).toEqual([3, 3, 3, 0, 0]);
  });
});

describe('refused patterns', () => {
  const refusals: [string, RegExp, number][] = [
    ['(a)\\1', /backreferences/, 3],
    ['(?<w>a)\\k<w>', /backreferences/, 7],
    ['foo(?=bar)', /lookahead is not supported/, 3],
    ['(?!x)y', /lookahead is not supported/, 0],
    ['(?<=a)b', /lookbehind is not supported/, 0],
    ['(?>a+)b', /atomic groups/, 0],
    ['a++', /possessive/, 1],
    // 20 alone, 20 × 20 = 400 instructions together: the outer repeat is blamed.
    ['(a{20}){20}', new RegExp(`more than ${MAX_PROGRAM_SIZE} instructions`), 7],
    ['a{300}', new RegExp(`more than ${MAX_PROGRAM_SIZE} instructions`), 1],
    ['a{1001}', /repeat count above 1000/, 1],
    ['a{3,2}', /out of order/, 1],
    ['(ab', /missing '\)' for the group/, 0],
    ['ab)c', /unmatched '\)'/, 2],
    ['[abc', /missing '\]' for the class/, 0],
    ['[z-a]', /range out of order/, 1],
    ['[]a]', /empty class/, 0],
    ['[[:alpha:]]', /POSIX classes/, 1],
    ['\\q', /unknown escape \\q/, 0],
    ['\\Aabc', /unknown escape \\A/, 0],
    ['\\p{L}', /Unicode property escapes/, 0],
    ['ab\\', /lone '\\'/, 2],
    ['*a', /nothing to repeat/, 0],
    ['a**', /cannot follow another quantifier/, 2],
    ['^*a', /cannot be repeated/, 1],
    ['a{,3}', /'\{' must start a repeat/, 1],
    ['(?s)a', /inline flags/, 0],
    ['a*', /empty text/, 0],
    ['\\b|x', /empty text/, 0],
  ];
  for (const [source, message, position] of refusals) {
    it(`refuses ${source}`, () => {
      const checked = checkPattern(source);
      expect(checked.ok).toBe(false);
      if (checked.ok) return;
      expect(checked.error.message).toMatch(message);
      expect(checked.error.position).toBe(position);
    });
  }

  it('accepts a leading (?i), named and plain groups, and escaped punctuation', () => {
    for (const source of [
      '(?i)abc',
      '(?<name>a|b)c',
      '(a)(?:b)',
      '\\{\\}\\[\\]\\(\\)\\.\\*\\+\\?\\|\\^\\$\\/\\ ',
      'a{2,}?',
    ])
      expect(checkPattern(source).ok, source).toBe(true);
  });
});

describe('patterns that stall a backtracking engine', () => {
  const N = 50_000;
  const cases: [string, (n: number) => string][] = [
    ['(a+)+$', (n) => `${'a'.repeat(n)}b`],
    ['(a+)+$', (n) => 'a'.repeat(n)],
    ['(a|a)*b', (n) => 'a'.repeat(n)],
    ['(a|a)*b', (n) => `${'a'.repeat(n)}b`],
    ['(.*a){20}', (n) => 'a'.repeat(n)],
    ['(.*a){20}', (n) => 'ab'.repeat(n / 2)],
    ['(x+x+)+y', (n) => 'x'.repeat(n)],
  ];
  for (const [source, input] of cases) {
    it(`runs ${source} on ${JSON.stringify(input(6))}… of ${N} characters in linear work`, () => {
      const checked = checkPattern(source);
      if (!checked.ok) throw new Error(checked.error.message);
      const set = compilePatterns([checked.pattern]);
      const run = (t: string) => set.longestMatches(t, new Int32Array(t.length + 1));
      const steps = run(input(N));
      // Each offset steps each live thread once and visits each instruction at most once in closures.
      expect(steps).toBeLessThanOrEqual((N + 2) * (2 * checked.pattern.size + 2));
      // Half the text, half the work (give or take the ends).
      const half = run(input(N / 2));
      expect(steps / Math.max(half, 1)).toBeGreaterThan(1.9);
      expect(steps / Math.max(half, 1)).toBeLessThan(2.1);
    });
  }

  it('still finds what they match', () => {
    expect(longestByEngine('(a+)+$', 'aaaa')).toEqual([4, 4, 4, 4, 0]);
    expect(longestByEngine('(a|a)*b', 'aab')).toEqual([3, 3, 3, 0]);
    expect(longestByEngine('(.*a){2}', 'abab')).toEqual([3, 0, 0, 0, 0]);
  });
});
