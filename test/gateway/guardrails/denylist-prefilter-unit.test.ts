import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RequiredLiteral, requiredLiteral } from '../../../src/guardrails/denylist/regex/literal';
import {
  type CheckedPattern,
  checkPattern,
  compilePatterns,
} from '../../../src/guardrails/denylist/regex/pattern';

const checked = (source: string): CheckedPattern => {
  const result = checkPattern(source);
  if (!result.ok) throw new Error(`${source}: ${result.error.message}`);
  return result.pattern;
};

const literalOf = (source: string): RequiredLiteral | null => requiredLiteral(checked(source).node);

/** The longest-match table and the work done, with or without the prefilter. */
function scan(patterns: CheckedPattern[], text: string, prefilter: boolean) {
  const longest = new Int32Array(text.length + 1);
  const steps = compilePatterns(patterns, { prefilter }).longestMatches(text, longest);
  return { longest: [...longest], steps };
}

describe('the required literal of a pattern', () => {
  const cases: [string, string[] | null, number?, number?][] = [
    ['inv0-\\d{6}', ['inv0-'], 0, 6],
    ['INV0-\\d{6}', ['inv0-'], 0, 6],
    ['project (alpha|beta)', ['project alpha', 'project beta'], 0, 0],
    ['\\bproj-\\d+', ['proj-'], 0, Infinity],
    ['(foo|BAR)\\d+', ['foo', 'bar'], 0, Infinity],
    ['colou?r', ['color', 'colour'], 0, 0],
    ['[Aa]bc', ['abc'], 0, 0],
    ['(?:ab){2,3}', ['abab', 'ababab'], 0, 0],
    ['\\d{2}-secret-\\w{0,4}', ['-secret-'], 2, 4],
    ['(?:x\\d){1,3}key', ['key'], 6, 0],
    ['(?:key\\d){2,}', ['key'], 0, Infinity],
    ['(?:key\\d){1,3}', ['key'], 0, 9],
    ['\\d{3}-\\d{4}', null],
    ['a.b', null],
    ['x+', null],
    ['(ab|\\d)x', null],
    ['(?:.*a){63}', null],
  ];
  for (const [source, strings, before, after] of cases) {
    it(`of ${source} is ${strings ? strings.join(' | ') : 'none'}`, () => {
      const literal = literalOf(source);
      if (strings === null) {
        expect(literal).toBeNull();
        return;
      }
      expect([...(literal?.strings ?? [])].sort()).toEqual([...strings].sort());
      expect([literal?.before, literal?.after]).toEqual([before, after]);
    });
  }
});

// Literal-rich patterns over a small alphabet, so literals occur, overlap and sit near the text's edges.
const ATOMS = ['ab', 'ba', 'abc', 'a', 'b', 'c', 'x', '-', '\\d', '[ab]', '[bB]', '.', '\\w', '\\s', '[^a]'];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{1,3}', '{0,2}', '{2,}'];
const patternAtom = fc
  .tuple(fc.constantFrom(...ATOMS), fc.constantFrom('', '', ...QUANTIFIERS))
  .map(([a, q]) => (a.length > 1 && !a.startsWith('\\') && !a.startsWith('[') ? `(?:${a})${q}` : a + q));
const LITERALS = ['ab', 'abc', 'ba', 'x-'];
// A literal with reach on either side (what the windows must cover), or one inside a generated expression.
const simplePattern = fc
  .tuple(
    fc.array(patternAtom, { maxLength: 3 }),
    fc.constantFrom(...LITERALS),
    fc.array(patternAtom, { maxLength: 3 }),
  )
  .map(([pre, lit, post]) => `${pre.join('')}${lit}${post.join('')}`);
const generatedPattern = fc
  .letrec<{ node: string; atom: string }>((tie) => ({
    atom: fc.oneof(
      fc.constantFrom(...ATOMS),
      tie('node').map((n) => `(?:${n})`),
    ),
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('atom'),
      fc.tuple(tie('atom'), fc.constantFrom(...QUANTIFIERS)).map(([a, q]) => a + q),
      fc.array(tie('node'), { minLength: 2, maxLength: 4 }).map((items) => items.join('')),
      fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((items) => items.join('|')),
      fc.constantFrom('^', '$', '\\b', '\\B'),
    ),
  }))
  .node.chain((node) =>
    fc
      .tuple(fc.constantFrom(...LITERALS), fc.constantFrom(0, 1, 2), patternAtom)
      .map(([lit, where, other]) => [`${node}${lit}`, `${lit}${node}`, `${node}${lit}${other}`][where]!),
  );
const patternSource = fc.oneof(simplePattern, generatedPattern);
// Texts made of pieces that the patterns read, so literals occur and matches reach out from them.
const textOf = fc
  .array(fc.constantFrom('ab', 'abc', 'ba', 'x-', 'a', 'b', 'c', 'A', 'B', 'x', '1', '12', ' ', '-', '\n'), {
    maxLength: 30,
  })
  .map((pieces) => pieces.join(''));

describe('the literal prefilter', () => {
  it('gives exactly the unfiltered engine’s longest matches on random lists and texts', () => {
    let gated = 0;
    let lists = 0;
    let matched = 0;
    fc.assert(
      fc.property(
        fc.array(patternSource, { minLength: 1, maxLength: 5 }),
        fc.array(textOf, { minLength: 1, maxLength: 4 }),
        (sources, texts) => {
          const patterns = sources.map((s) => checkPattern(s)).flatMap((c) => (c.ok ? [c.pattern] : []));
          if (patterns.length === 0) return;
          lists++;
          gated += patterns.filter((p) => requiredLiteral(p.node) !== null).length;
          for (const text of texts) {
            const expected = scan(patterns, text, false).longest;
            const found = scan(patterns, text, true).longest;
            expect(found, `${sources.join(' ; ')} on ${JSON.stringify(text)}`).toEqual(expected);
            if (expected.some((end) => end > 0)) matched++;
          }
        },
      ),
      { numRuns: 500 },
    );
    // The comparison is only worth something if many patterns were gated and many texts matched.
    expect(lists).toBeGreaterThan(300);
    expect(gated).toBeGreaterThan(300);
    expect(matched).toBeGreaterThan(300);
  });

  it('reports every match whose literal sits at the very start or end of the text', () => {
    const patterns = ['\\bkey\\d{2}', '\\d{2}key$', '^key', 'k(?:ey)+\\b'].map(checked);
    for (const text of ['key12', '12key', 'key', 'keyeyey', 'x key12 12key']) {
      expect(scan(patterns, text, true).longest).toEqual(scan(patterns, text, false).longest);
      expect(scan(patterns, text, true).longest.some((end) => end > 0)).toBe(true);
    }
  });

  it('does no pattern work on a text without the literals, and works only near the one that occurs', () => {
    const patterns = Array.from({ length: 20 }, (_, k) => checked(`inv${k}-\\d{6}`));
    const prose = 'the invoice for this quarter is attached, invoices 2 and 3 follow. '.repeat(60);
    expect(scan(patterns, prose, true).steps).toBe(0);
    expect(scan(patterns, prose, false).steps).toBeGreaterThan(prose.length);
    const text = `${prose}INV7-123456 ${prose}`;
    const filtered = scan(patterns, text, true);
    expect(filtered.longest).toEqual(scan(patterns, text, false).longest);
    expect(filtered.longest[prose.length]).toBe(prose.length + 11);
    // One window of 11 units around the occurrence, on a 12-instruction program.
    expect(filtered.steps).toBeGreaterThan(0);
    expect(filtered.steps).toBeLessThan(12 * 30);
  });

  it('still runs patterns without a literal over the whole text', () => {
    const patterns = ['\\d{3}-\\d{4}', 'inv0-\\d{6}'].map(checked);
    const text = `${'call me on '.repeat(100)}555-1234 or inv0-123456`;
    const { longest } = scan(patterns, text, true);
    expect(longest[1100]).toBe(1108);
    expect(longest[1112]).toBe(1123);
    expect(longest).toEqual(scan(patterns, text, false).longest);
  });
});
