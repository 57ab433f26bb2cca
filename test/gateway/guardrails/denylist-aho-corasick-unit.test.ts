import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTermMatcher } from '../../../src/guardrails/denylist/aho-corasick';
import { foldString, foldUnit, isWordAt, isWordBefore } from '../../../src/guardrails/denylist/chars';

const byOffsets = (a: string, b: string) => {
  const [as, ae] = a.split(':').map(Number) as [number, number];
  const [bs, be] = b.split(':').map(Number) as [number, number];
  return as - bs || ae - be;
};

const all = (terms: string[], text: string, wholeWords = true): string[] => {
  const found: string[] = [];
  buildTermMatcher(terms, { wholeWords }).forEach(text, (start, end) => found.push(`${start}:${end}`));
  return found.sort(byOffsets);
};

/** Every (start, end) where a term occurs, by comparing folded substrings at every offset. */
function naive(terms: string[], text: string, wholeWords: boolean): string[] {
  const found = new Set<string>();
  for (let start = 0; start < text.length; start++) {
    for (const term of terms) {
      const end = start + term.length;
      if (term.length === 0 || end > text.length) continue;
      if (foldString(text.slice(start, end)) !== foldString(term)) continue;
      if (wholeWords && isWordAt(term, 0) && isWordBefore(text, start)) continue;
      if (wholeWords && isWordBefore(term, term.length) && isWordAt(text, end)) continue;
      found.add(`${start}:${end}`);
    }
  }
  return [...found].sort(byOffsets);
}

// A small alphabet so terms overlap, share prefixes and suffixes, and meet word boundaries often.
const unit = fc.constantFrom('a', 'b', 'A', 'B', 'é', 'É', ' ', '-', '_', 'σ', 'ς', 'Σ');
const word = fc.array(unit, { minLength: 1, maxLength: 6 }).map((units) => units.join(''));

describe('the Aho–Corasick term matcher', () => {
  it('reports exactly what a naive scan finds, whole words or not', () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 12 }),
        fc.array(unit, { maxLength: 60 }),
        fc.boolean(),
        (terms, units, wholeWords) => {
          const text = units.join('');
          expect(all(terms, text, wholeWords)).toEqual(naive(terms, text, wholeWords));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('fills the longest term per start offset', () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 8 }),
        fc.array(unit, { maxLength: 40 }),
        (terms, units) => {
          const text = units.join('');
          const longest = new Int32Array(text.length + 1);
          buildTermMatcher(terms).fillLongest(text, longest);
          const expected = new Int32Array(text.length + 1);
          for (const span of naive(terms, text, true)) {
            const [start, end] = span.split(':').map(Number) as [number, number];
            expected[start] = Math.max(expected[start]!, end);
          }
          expect([...longest]).toEqual([...expected]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('matches whole words by default: "ass" never fires inside "class", "assert" or "ass_1"', () => {
    const terms = ['ass'];
    expect(all(terms, 'class assert ass_1 ass1 sass')).toEqual([]);
    expect(all(terms, 'ASS, (ass) kick-ass ass.')).toEqual(['0:3', '6:9', '16:19', '20:23']);
    expect(all(terms, 'class', false)).toEqual(['2:5']);
  });

  it('needs a boundary only on the sides where the term has a word character', () => {
    expect(all(['$$$'], 'a$$$b')).toEqual(['1:4']);
    expect(all(['@evil'], 'x@evil x@evils')).toEqual(['1:6']);
    expect(all(['bad word'], 'a bad word; badword bad words')).toEqual(['2:10']);
  });

  it('treats letters of any script, marks and astral letters as word characters', () => {
    expect(all(['na'], 'naïve')).toEqual([]);
    expect(all(['cafe'], 'cafe\u0301')).toEqual([]); // e followed by a combining accent
    expect(all(['ss'], '\u{1D41A}ss ss')).toEqual(['5:7']); // MATHEMATICAL BOLD SMALL A is a letter
    expect(all(['日本'], '日本語 日本')).toEqual(['4:6']);
  });

  it('folds case by Unicode simple case folding', () => {
    expect(all(['straße'], 'STRAßE')).toEqual(['0:6']);
    expect(all(['ΟΔΟΣ'], 'οδος οδοσ')).toEqual(['0:4', '5:9']);
    expect(all(['kelvin'], '\u212Aelvin')).toEqual(['0:6']); // KELVIN SIGN
    expect(all(['istanbul'], 'İstanbul ıstanbul')).toEqual([]); // İ and ı fold to neither i nor I
  });

  it('reports overlapping terms and terms inside terms', () => {
    expect(all(['he', 'she', 'hers', 'his'], 'ushers', false)).toEqual(['1:4', '2:4', '2:6']);
    expect(all(['a a', 'a a a'], 'a a a')).toEqual(['0:3', '0:5', '2:5']);
  });

  it('knows its longest term', () => {
    expect(buildTermMatcher(['ab', 'abcdef', 'x']).maxLength).toBe(6);
  });
});

describe('case folding', () => {
  it('is idempotent and agrees with the runtime’s Unicode case-insensitive matching on cased characters', () => {
    const disagreements: string[] = [];
    for (let c = 0x41; c < 0x10000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCharCode(c);
      const f = foldUnit(c);
      if (foldUnit(f) !== f) disagreements.push(`fold(fold(${c.toString(16)}))`);
      if (f === c && ch.toLowerCase() === ch && ch.toUpperCase() === ch) continue; // uncased
      if (!new RegExp(`^\\u{${f.toString(16)}}$`, 'iu').test(ch))
        disagreements.push(`${c.toString(16)}→${f.toString(16)}`);
      for (const other of [ch.toLowerCase(), ch.toUpperCase()]) {
        if (other.length !== 1 || foldUnit(other.charCodeAt(0)) === f) continue;
        if (new RegExp(`^\\u{${c.toString(16)}}$`, 'iu').test(other))
          disagreements.push(`${c.toString(16)}~${other}`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});
