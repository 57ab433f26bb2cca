/** The exchange's one exit: every registered step runs exactly once, whatever order things happen in. */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors';
import { type Answer, type Ending, Exchange } from '../../../src/core/exchange';

function exchange() {
  const background: Promise<unknown>[] = [];
  let now = 0;
  const x = new Exchange({
    id: 'req',
    path: '/v1/chat/completions',
    receivedAt: 0,
    startedAt: 0,
    waitUntil: (p) => background.push(p),
    clock: () => now,
  });
  const tick = (ms: number) => {
    now += ms;
  };
  return { x, background, tick };
}

const answer: Answer = {
  usage: {
    inputTokens: 3,
    outputTokens: 4,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite1hTokens: 0,
    reasoningTokens: 0,
  },
  delivery: { completed: true, deliveredChars: 10 },
  whole: null,
  lateError: null,
  text: null,
};

describe('Exchange', () => {
  it('runs each registered step once, last registered first, with the same ending', async () => {
    const { x } = exchange();
    const seen: string[] = [];
    const endings: Ending[] = [];
    const step = (name: string) => (e: Ending) => {
      seen.push(name);
      endings.push(e);
    };
    x.defer(step('first'));
    x.defer(step('second'));
    x.answered(answer);
    const [a, b] = await Promise.all([x.close(200, null), x.close(200, null)]);
    await x.close(500, null);
    expect(seen).toEqual(['second', 'first']);
    expect(a).toBe(b);
    expect(endings[0]).toBe(endings[1]);
    expect(a).toMatchObject({ status: 200, error: null, answer });
  });

  it('waits for a streamed answer to end before running the steps, and measures latency to that end', async () => {
    const { x, tick } = exchange();
    let finish!: (a: Answer) => void;
    x.answered(new Promise<Answer>((resolve) => (finish = resolve)));
    let ran = 0;
    x.defer(() => void ran++);
    const closed = x.close(200, null);
    await Promise.resolve();
    expect(ran).toBe(0);
    tick(40);
    finish(answer);
    const ending = await closed;
    expect(ran).toBe(1);
    expect(ending.latencyMs).toBe(40);
    expect(ending.answer).toBe(answer);
  });

  it('ends with no answer when the request ended in an error, even if an answer was reported', async () => {
    const { x } = exchange();
    x.answered(answer);
    const error = new GatewayError(502, 'bad upstream', { code: 'bad_upstream_response' });
    expect(await x.close(502, error)).toMatchObject({ status: 502, error, answer: null });
  });

  it('keeps running the other steps when one fails', async () => {
    const { x } = exchange();
    let ran = 0;
    x.defer(() => void ran++);
    x.defer(() => {
      throw new Error('store failed');
    });
    x.defer(async () => {
      throw new Error('settle failed');
    });
    await x.close(200, null);
    expect(ran).toBe(1);
  });

  it('runs a step registered after the exit at once, kept alive by waitUntil', async () => {
    const { x, background } = exchange();
    await x.close(429, null);
    const got: Ending[] = [];
    x.defer((e) => void got.push(e));
    await Promise.all(background);
    expect(got).toEqual([expect.objectContaining({ status: 429, answer: null })]);
  });

  it('is answered once', () => {
    const { x } = exchange();
    x.answered(answer);
    expect(() => x.answered(answer)).toThrow(/once/);
  });
});
