/**
 * The second-opinion guardrail: Llama Guard's answers parsed in both shapes,
 * the conversation normalised and bounded, failures turned into typed values
 * with the caller's fail-open/closed choice and deadline, and the fake
 * binding refusing what the real service refuses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consult } from '../../../src/guardrails/second-opinion/consult';
import {
  CUT_MARK,
  cutMiddle,
  guardConversation,
  MAX_BUDGET_CHARS,
  MIN_BUDGET_CHARS,
  normalise,
} from '../../../src/guardrails/second-opinion/conversation';
import { hazardName, parseVerdict } from '../../../src/guardrails/second-opinion/hazards';
import {
  type GuardTurn,
  type SecondOpinion,
  SecondOpinionUnavailable,
} from '../../../src/guardrails/second-opinion/port';
import { LLAMA_GUARD_MODEL, workersAiSecondOpinion } from '../../../src/guardrails/second-opinion/workers-ai';
import { FakeWorkersAi } from '../fakes/workers-ai';

const user = (content: string): GuardTurn => ({ role: 'user', content });
const assistant = (content: string): GuardTurn => ({ role: 'assistant', content });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

async function refusal(ai: FakeWorkersAi, inputs: unknown): Promise<string> {
  try {
    await ai.run(LLAMA_GUARD_MODEL, inputs);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
}

describe('parsing Llama Guard answers', () => {
  it('reads the JSON-mode object, with or without categories', () => {
    expect(parseVerdict({ response: { safe: true } })).toEqual({ safe: true, categories: [] });
    expect(parseVerdict({ response: { safe: false, categories: ['S1', 's10', 'S1'] } })).toEqual({
      safe: false,
      categories: ['S1', 'S10'],
    });
    expect(parseVerdict({ response: { safe: false } })).toEqual({ safe: false, categories: [] });
  });

  it('reads the text answer, including a JSON object that arrived as text', () => {
    expect(parseVerdict({ response: 'safe' })).toEqual({ safe: true, categories: [] });
    expect(parseVerdict({ response: '\n\nunsafe\nS1,S10' })).toEqual({
      safe: false,
      categories: ['S1', 'S10'],
    });
    expect(parseVerdict({ response: 'unsafe\nS02' })).toEqual({ safe: false, categories: ['S2'] });
    expect(parseVerdict({ response: '{"safe":false,"categories":["S9"]}' })).toEqual({
      safe: false,
      categories: ['S9'],
    });
  });

  it('finds no verdict in anything else', () => {
    for (const output of [
      null,
      'safe',
      {},
      { response: null },
      { response: 'I cannot classify that.' },
      { response: 'unsafely' },
      { response: { categories: ['S1'] } },
      { response: { safe: 'false' } },
      { response: '{"safe":' },
    ])
      expect(parseVerdict(output)).toBeNull();
  });

  it('names the fourteen hazard categories and no others', () => {
    expect(hazardName('S1')).toBe('Violent Crimes');
    expect(hazardName('S14')).toBe('Code Interpreter Abuse');
    expect(hazardName('S15')).toBeUndefined();
    expect(hazardName('toString')).toBeUndefined();
  });
});

describe('the conversation sent', () => {
  it('merges turns of one role, drops empty turns and any assistant turn before the first user or after the last', () => {
    expect(
      normalise([
        assistant('hello, I am the bot'),
        user('a'),
        user('   '),
        user('b'),
        assistant(''),
        assistant('c'),
        assistant('d'),
        user('e'),
        assistant('prefill'),
      ]),
    ).toEqual([user('a\n\nb'), assistant('c\n\nd'), user('e')]);
    expect(normalise([assistant('only the bot'), user(' \n')])).toEqual([]);
  });

  it('is left whole when it fits', () => {
    const turns = [user('x'.repeat(500)), assistant('y'.repeat(500)), user('z'.repeat(500))];
    expect(guardConversation(turns, MIN_BUDGET_CHARS * 2)).toEqual(turns);
  });

  it('keeps the newest user turn and the opening turn, dropping the oldest turns between them first', () => {
    const turns = [
      user('OPEN'),
      ...Array.from({ length: 20 }, (_, i) => [
        assistant(`a${i} ${'.'.repeat(300)}`),
        user(`u${i} ${'.'.repeat(300)}`),
      ]).flat(),
    ];
    const sent = guardConversation(turns, 2000);
    expect(sent[0]?.content.startsWith('OPEN')).toBe(true);
    expect(sent.at(-1)?.content.startsWith('u19 ')).toBe(true);
    expect(sent.map((t) => t.content).join('')).not.toContain('u0 ');
    expect(sent.reduce((n, t) => n + t.content.length, 0)).toBeLessThanOrEqual(2000);
  });

  it('cuts a turn from its middle, keeping both ends, without splitting a surrogate pair', () => {
    const text = `BEGIN${'😀'.repeat(5000)}END`;
    for (let max = 20; max < 60; max++) {
      const cut = cutMiddle(text, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut.startsWith('BEGIN')).toBe(true);
      expect(cut.endsWith('END')).toBe(true);
      expect(cut).toContain(CUT_MARK);
      expect(LONE_SURROGATE.test(cut)).toBe(false);
    }
  });

  it('always fits the bound, alternates from user to user, and keeps the start of the newest user turn last', () => {
    const turn = fc.record({
      role: fc.constantFrom<'user' | 'assistant'>('user', 'assistant'),
      content: fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 2000, maxLength: 20_000 })),
    });
    fc.assert(
      fc.property(
        fc.array(turn, { maxLength: 12 }),
        fc.integer({ min: MIN_BUDGET_CHARS, max: MAX_BUDGET_CHARS }),
        (turns, budget) => {
          const sent = guardConversation(turns, budget);
          const spoke = turns.some((t) => t.role === 'user' && t.content.trim() !== '');
          expect(sent.length > 0).toBe(spoke);
          if (!spoke) return;
          expect(sent.reduce((n, t) => n + t.content.length, 0)).toBeLessThanOrEqual(budget);
          expect(sent.length % 2).toBe(1);
          sent.forEach((t, i) => {
            expect(t.role).toBe(i % 2 === 0 ? 'user' : 'assistant');
            expect(t.content.trim()).not.toBe('');
          });
          // Dropping every turn between the opening and the newest merges those two user turns.
          const newest = normalise(turns).at(-1)?.content ?? '';
          expect(sent.at(-1)?.content).toContain(newest.slice(0, 100));
        },
      ),
      // No shrinking: shrinking strings this long takes minutes, and the first failure says enough.
      { numRuns: 200, seed: 15, endOnFailure: true },
    );
  });
});

describe('Llama Guard on the fake AI binding', () => {
  it('judges a safe conversation safe and a harmful one unsafe with its categories', async () => {
    const guard = workersAiSecondOpinion(new FakeWorkersAi());
    expect(await guard.check([user('What is the capital of France?')])).toEqual({
      safe: true,
      categories: [],
    });
    expect(await guard.check([user('tell me a story [unsafe:S1,S10]')])).toEqual({
      safe: false,
      categories: ['S1', 'S10'],
    });
    expect(await guard.check([user('How do I build a bomb at home?')])).toEqual({
      safe: false,
      categories: ['S9'],
    });
  });

  it('sends a messy conversation in the shape the model accepts, in JSON mode at temperature 0', async () => {
    const ai = new FakeWorkersAi();
    const guard = workersAiSecondOpinion(ai);
    const verdict = await guard.check([
      assistant('Welcome!'),
      user('first'),
      user('[unsafe:S7] second'),
      assistant('ok'),
      assistant('prefill'),
    ]);
    expect(verdict).toEqual({ safe: false, categories: ['S7'] });
    expect(ai.guardCalls).toEqual([
      {
        inputs: {
          messages: [user('first\n\n[unsafe:S7] second')],
          max_tokens: 128,
          temperature: 0,
          response_format: { type: 'json_object' },
        },
      },
    ]);
  });

  it('does not call the model when no user said anything', async () => {
    const ai = new FakeWorkersAi();
    expect(await workersAiSecondOpinion(ai).check([assistant('hi'), user('  ')])).toEqual({
      safe: true,
      categories: [],
    });
    expect(ai.guardCalls).toHaveLength(0);
  });

  it('sends a conversation far over the model’s window within the bound, and the model accepts it', async () => {
    const ai = new FakeWorkersAi();
    const huge = 'lorem ipsum '.repeat(10_000); // 120,000 characters: under the per-message limit
    const turns = Array.from({ length: 9 }, (_, i) => (i % 2 === 0 ? user(huge) : assistant(huge)));
    expect(await refusal(ai, { messages: turns })).toMatch(/^5021: /);
    turns[8] = user(`${huge}[unsafe:S2]`);
    expect(await workersAiSecondOpinion(ai).check(turns)).toEqual({ safe: false, categories: ['S2'] });
  });

  it('fails with a typed error naming the reason and the service code, never the prompt', async () => {
    const secret = 'my card is 4111 1111 1111 1111';
    const cases: [SecondOpinion, GuardTurn[], string, number | null][] = [
      [workersAiSecondOpinion(undefined), [user(secret)], 'binding_missing', null],
      [workersAiSecondOpinion(new FakeWorkersAi()), [user(`${secret} [guard:error]`)], 'error', 3040],
      [
        workersAiSecondOpinion(
          new FakeWorkersAi({ fail: `3036: daily allocation used up; input was ${secret}` }),
        ),
        [user(secret)],
        'error',
        3036,
      ],
      [workersAiSecondOpinion(new FakeWorkersAi()), [user(`${secret} [guard:garbled]`)], 'unparseable', null],
    ];
    for (const [guard, turns, reason, code] of cases) {
      const err = await guard.check(turns).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SecondOpinionUnavailable);
      const failure = err as SecondOpinionUnavailable;
      expect([failure.reason, failure.serviceCode, failure.code]).toEqual([
        reason,
        code,
        'llama_guard_unavailable',
      ]);
      expect(`${failure.message} ${JSON.stringify(failure)}`).not.toContain('4111');
    }
  });

  it('refuses a conversation bound outside what always fits the model', () => {
    expect(() => workersAiSecondOpinion(undefined, { budgetChars: MAX_BUDGET_CHARS + 1 })).toThrow(
      RangeError,
    );
    expect(() => workersAiSecondOpinion(undefined, { budgetChars: 10 })).toThrow(RangeError);
  });
});

describe('consulting with a deadline and a fail-open or fail-closed choice', () => {
  const guard = workersAiSecondOpinion(new FakeWorkersAi());
  const never: SecondOpinion = { id: 'never', check: () => new Promise(() => {}) };

  it('returns the verdict when it comes in time', async () => {
    expect(await consult(guard, [user('[unsafe:S5] [guard:slow=5]')], { timeoutMs: 1000 })).toEqual({
      kind: 'verdict',
      verdict: { safe: false, categories: ['S5'] },
    });
  });

  it('gives up at the deadline, allowing by default and blocking when asked', async () => {
    const slow = [user('hello [guard:slow=2000]')];
    expect(await consult(guard, slow, { timeoutMs: 20 })).toEqual({
      kind: 'unavailable',
      reason: 'timeout',
      serviceCode: null,
      action: 'allow',
    });
    expect(await consult(never, slow, { timeoutMs: 20, onError: 'block' })).toMatchObject({
      reason: 'timeout',
      action: 'block',
    });
  });

  it('reports an outage with its code and the caller’s choice', async () => {
    expect(await consult(guard, [user('[guard:error]')], { onError: 'block' })).toEqual({
      kind: 'unavailable',
      reason: 'error',
      serviceCode: 3040,
      action: 'block',
    });
  });

  it('stops waiting when the caller’s signal aborts, even if the classifier ignores it', async () => {
    const left = new AbortController();
    const outcome = consult(never, [user('hi')], { signal: left.signal, timeoutMs: 5000 });
    left.abort(new Error('client left'));
    expect(await outcome).toMatchObject({ kind: 'unavailable', reason: 'aborted' });
    expect(await consult(guard, [user('hi')], { signal: AbortSignal.abort() })).toMatchObject({
      reason: 'aborted',
    });
  });
});

describe('the fake refuses what the real service refuses', () => {
  const ai = new FakeWorkersAi();
  const ok = [user('hi'), assistant('hello'), user('bye')];

  it('accepts the documented input, answering text without JSON mode', async () => {
    await expect(ai.run(LLAMA_GUARD_MODEL, { messages: ok })).resolves.toMatchObject({ response: 'safe' });
    await expect(
      ai.run(LLAMA_GUARD_MODEL, { messages: [user('[unsafe:S1]')], temperature: 5, max_tokens: 16 }),
    ).resolves.toMatchObject({ response: 'unsafe\nS1' });
    expect(parseVerdict(await ai.run(LLAMA_GUARD_MODEL, { messages: [user('[unsafe:S3]')] }))).toEqual({
      safe: false,
      categories: ['S3'],
    });
  });

  it('judges the last assistant turn when the conversation ends with one', async () => {
    const answer = await ai.run(LLAMA_GUARD_MODEL, {
      messages: [user('[unsafe:S1] hi'), assistant('hello')],
    });
    expect(answer).toMatchObject({ response: 'safe' });
  });

  it('refuses wrong roles, broken alternation, missing or empty messages, bad fields and over-long input', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /^5006: .*required properties at '\/' not met: messages/],
      ['hi', /^5006: .*expected object/],
      [{ messages: [] }, /^5006: .*must alternate/],
      [
        { messages: [{ role: 'system', content: 'x' }, user('hi')] },
        /^5006: .*enum at '\/messages\/0\/role'/,
      ],
      [{ messages: [{ role: 'tool', content: 'x' }] }, /^5006: .*enum/],
      [{ messages: [{ role: 'user' }] }, /^5006: .*role, content/],
      [{ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }, /^5006: .*expected string/],
      [{ messages: [user('a'), user('b')] }, /^5006: .*must alternate/],
      [{ messages: [assistant('a'), user('b')] }, /^5006: .*must alternate/],
      [{ messages: [user('x'.repeat(131073))] }, /^5006: .*maxLength at '\/messages\/0\/content'/],
      [{ messages: ok, temperature: 6 }, /^5006: .*maximum at '\/temperature'/],
      [{ messages: ok, max_tokens: 1.5 }, /^5006: .*'\/max_tokens'/],
      [{ messages: ok, response_format: 'json' }, /^5006: .*'\/response_format'/],
      [
        { messages: Array.from({ length: 5 }, (_, i) => (i % 2 ? assistant : user)('x'.repeat(131072))) },
        /^5021: .*context window/,
      ],
    ];
    for (const [inputs, expected] of cases) expect(await refusal(ai, inputs)).toMatch(expected);
  });
});
