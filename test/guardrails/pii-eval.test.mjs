// The PII and secret detectors' precision and recall on the generated set (scripts/guardrails/pii-corpus.mjs),
// held to floors: checksummed and prefixed kinds must be near-exact, the looser ones (phones, context-found
// credentials) close behind. Also checks the corpus itself: same seed, same set; valid values really valid.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { generateCorpus } from '../../scripts/guardrails/pii-corpus.mjs';
import { evaluate } from '../../scripts/guardrails/pii-eval.mjs';

const PRECISION_FLOOR = { default: 0.99 };
const RECALL_FLOOR = { default: 0.99, bearer_token: 0.97, phone: 0.97 };
const NEGATIVE_HIT_RATE = 0.005;

describe('PII and secret detection on the generated set', () => {
  let result;
  before(async () => {
    result = await evaluate({ seed: 11, perKind: 400, negatives: 4000 });
  });

  it('reaches the precision floor for every kind', () => {
    for (const r of result.rows) {
      const floor = PRECISION_FLOOR[r.kind] ?? PRECISION_FLOOR.default;
      assert.ok(r.precision >= floor, `${r.kind}: precision ${r.precision} < ${floor}`);
    }
  });

  it('reaches the recall floor for every kind', () => {
    for (const r of result.rows) {
      const floor = RECALL_FLOOR[r.kind] ?? RECALL_FLOOR.default;
      assert.equal(r.positives, 400, r.kind);
      assert.ok(r.recall >= floor, `${r.kind}: recall ${r.recall} < ${floor}`);
    }
  });

  it('finds almost nothing in the hard negatives', () => {
    assert.ok(
      result.negativeHits / result.negatives <= NEGATIVE_HIT_RATE,
      `${result.negativeHits} of ${result.negatives} hard negatives had a finding`,
    );
  });
});

describe('the generated set', () => {
  it('is the same for the same seed and differs for another', () => {
    const a = generateCorpus({ seed: 3, perKind: 5, negatives: 20 });
    assert.deepEqual(generateCorpus({ seed: 3, perKind: 5, negatives: 20 }), a);
    assert.notDeepEqual(generateCorpus({ seed: 4, perKind: 5, negatives: 20 }), a);
  });

  it('embeds Luhn-valid cards and invalid ones among the negatives', () => {
    const luhn = (digits) =>
      [...digits].reverse().reduce((sum, ch, i) => {
        let d = Number(ch);
        if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
        return sum + d;
      }, 0) %
        10 ===
      0;
    const corpus = generateCorpus({ seed: 5, perKind: 50, negatives: 2000 });
    const cards = corpus.flatMap((s) =>
      s.spans.filter((x) => x.kind === 'card').map((x) => s.text.slice(x.start, x.end).replace(/\D/g, '')),
    );
    assert.equal(cards.length, 50);
    assert.ok(cards.every(luhn));
    const bad = corpus
      .filter((s) => s.spans.length === 0 && s.text.includes('card '))
      .map((s) => s.text.match(/card ([\d -]+\d)/)[1].replace(/\D/g, ''));
    assert.ok(bad.length > 20);
    assert.ok(bad.every((d) => !luhn(d)));
  });
});
