/**
 * Adversarial inputs finish in linear work. Work is counted, not timed: the
 * characters each settle call scans (the only place a stream could go
 * quadratic), and, for the regular expressions, a structural check that no
 * detector pattern has an unbounded quantifier, so each match attempt is
 * bounded by a constant and a scan is linear in the text.
 */
import { describe, expect, it } from 'vitest';
import type { SettlingFinder } from '../../../src/guardrails/pii/compose';
import { ALL_DETECTORS } from '../../../src/guardrails/pii/finder';
import { createStreamRedactor, SHORT_HOLD, WORK_BUDGET } from '../../../src/guardrails/pii/stream-redactor';
import { ALL } from './pii-helpers';

const N = 100_000;
const ADVERSARIAL: Record<string, string> = {
  digits: '1'.repeat(N),
  at: '@'.repeat(N),
  a: 'a'.repeat(N),
  'digit groups': '1111 '.repeat(N / 5),
  'digits and dots': '1.'.repeat(N / 2),
  'a@': 'a@'.repeat(N / 2),
  'a@b.': 'a@b.'.repeat(N / 4),
  colons: ':'.repeat(N),
  'hex and colons': 'a:'.repeat(N / 2),
  'BEGIN lines': '-----BEGIN RSA PRIVATE KEY-----\n'.repeat(N / 32),
  'open BEGIN': `-----BEGIN PRIVATE KEY-----\n${'A'.repeat(N)}`,
  'eyJ run': `eyJ${'a'.repeat(N)}`,
  'sk- repeated': 'sk-'.repeat(N / 3),
  'token= repeated': 'token='.repeat(N / 6),
  'Bearer repeated': 'Bearer '.repeat(N / 7),
  'IBAN heads': 'DE89 '.repeat(N / 5),
};

/** The finder, counting the characters its settle calls scan. */
function counting(finder: SettlingFinder): { finder: SettlingFinder; work: () => number } {
  let work = 0;
  return {
    finder: {
      ...finder,
      settle(text, from, final) {
        work += text.length - from;
        return finder.settle(text, from, final);
      },
    },
    work: () => work,
  };
}

describe('adversarial inputs', () => {
  for (const [name, text] of Object.entries(ADVERSARIAL)) {
    it(`scans 100 KB of ${name} whole, and streamed in 7-character chunks with linear rescanning`, () => {
      const spans = ALL.find(text);
      for (const s of spans) expect(s.end - s.start).toBeLessThanOrEqual(ALL.maxLength);
      const { finder, work } = counting(ALL);
      const r = createStreamRedactor({ finder, replace: () => '' });
      for (let i = 0; i < text.length; i += 7) r.push(text.slice(i, i + 7));
      r.flush();
      // Short holds are rescanned on every push, longer ones once doubled or within the budget: linear.
      const pushes = Math.ceil(text.length / 7);
      expect(work()).toBeLessThanOrEqual(pushes * (SHORT_HOLD + 7) + (2 + WORK_BUDGET) * text.length);
      expect(work()).toBeLessThanOrEqual(16 * text.length);
    });
  }

  it('keeps the amount held back bounded by twice maxLength whatever arrives', () => {
    for (const whole of Object.values(ADVERSARIAL)) {
      const text = whole.slice(0, 20_000);
      let inside = 0;
      let passed = 0;
      const r = createStreamRedactor({ finder: ALL, replace: () => '' });
      for (let i = 0; i < text.length; i += 7) {
        const chunk = text.slice(i, i + 7);
        inside += chunk.length;
        const out = r.push(chunk);
        passed += out.length;
        // Nothing is replaced in these texts except whole key blocks, which empty what they cover.
        if (!text.startsWith('-----')) expect(inside - passed).toBeLessThanOrEqual(2 * ALL.maxLength + 14);
      }
    }
  });
});

/** The pattern source without escapes and character classes, where a quantifier is plain to see. */
function quantifiers(source: string): string {
  return source.replace(/\\./g, 'x').replace(/\[[^\]]*\]/g, 'x');
}

describe('detector patterns', () => {
  it('use bounded quantifiers only (no *, + or {n,}), so each attempt costs at most a constant', () => {
    for (const d of ALL_DETECTORS) {
      expect(d.pattern, d.kind).toBeInstanceOf(RegExp);
      expect(quantifiers(d.pattern!.source), `${d.kind}: ${d.pattern!.source}`).not.toMatch(/[*+]|\{\d+,\}/);
    }
  });

  it('would catch an unbounded quantifier', () => {
    expect(quantifiers('(?<![a-z])[a-z]+@x')).toMatch(/[*+]/);
    expect(quantifiers('a{2,}')).toMatch(/\{\d+,\}/);
    expect(quantifiers('\\+[+*]\\d{1,4}')).not.toMatch(/[*+]|\{\d+,\}/);
  });
});
