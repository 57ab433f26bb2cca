import { describe, expect, it } from 'vitest';
import { NANOS_PER_USD } from '../../../src/limits/protocol';
import { chatBody, post } from '../helpers';
import { limitedKey, setPrice, settledDump } from '../limits-helpers';

type Completion = { usage: { prompt_tokens: number; completion_tokens: number } };
type Refusal = { error: { code: string; type: string; limit: { kind: string } } };

/** Fires `n` identical requests at once and sorts the answers. */
async function burst(secret: string, n: number, body: unknown) {
  const responses = await Promise.all(
    Array.from({ length: n }, () => post('/v1/chat/completions', body, secret)),
  );
  const usages: Completion['usage'][] = [];
  const refusals: Refusal['error'][] = [];
  for (const res of responses) {
    if (res.status === 200) usages.push(((await res.json()) as Completion).usage);
    else if (res.status === 429) refusals.push(((await res.json()) as Refusal).error);
    else throw new Error(`unexpected ${res.status}: ${await res.text()}`);
  }
  return { usages, refusals };
}

// 'one two three four': prompt 3 + 4 + ⌈18/4⌉ = 12, echoed as 4 tokens; with max_tokens 10 each
// request reserves 22 tokens and spends 16.
const BODY = chatBody('one two three four', { max_tokens: 10 });

describe('budgets under concurrency', () => {
  it('200 concurrent requests never spend past a small token budget, and the ledger is the sum of settled usage', async () => {
    const budget = 500;
    const { secret, tenantId, keyId } = await limitedKey({ budgets: { tokens: { day: budget } } });
    const { usages, refusals } = await burst(secret, 200, BODY);

    const settled = usages.reduce((sum, u) => sum + u.prompt_tokens + u.completion_tokens, 0);
    const key = await settledDump(tenantId, keyId);
    expect(key.state.ledger.day.tokensSpent).toBe(settled);
    expect(key.state.ledger.day.tokensHeld).toBe(0);
    expect(settled).toBeLessThanOrEqual(budget);
    // However they interleave, the first ⌊500 / 22⌋ worst cases fit side by side.
    expect(usages.length).toBeGreaterThanOrEqual(Math.floor(budget / 22));
    expect(usages.length + refusals.length).toBe(200);
    for (const refusal of refusals)
      expect(refusal).toMatchObject({
        code: 'budget_exceeded',
        type: 'insufficient_quota',
        limit: { kind: 'tokens_day' },
      });
    const tenant = await settledDump(tenantId);
    expect(tenant.state.ledger.total.tokensSpent).toBe(settled);
  });

  it('holds a USD budget the same way, at the admin override price, with no overspend', async () => {
    // $1000 per 1M tokens: each spent token costs $0.001, each request at most $0.022.
    await setPrice('mock/echo-priced', { input: 1000, output: 1000 });
    const { secret, tenantId } = await limitedKey({ tenantBudgets: { usd: { total: 0.3 } } });
    const { usages, refusals } = await burst(secret, 60, { ...BODY, model: 'mock/echo-priced' });

    const settledNanos = usages.reduce(
      (sum, u) => sum + (u.prompt_tokens + u.completion_tokens) * 1_000_000,
      0,
    );
    const tenant = await settledDump(tenantId);
    expect(tenant.state.ledger.total.nanosSpent).toBe(settledNanos);
    expect(settledNanos).toBeLessThanOrEqual(0.3 * NANOS_PER_USD);
    expect(usages.length).toBeGreaterThanOrEqual(Math.floor(300 / 22));
    for (const refusal of refusals)
      expect(refusal).toMatchObject({ code: 'budget_exceeded', limit: { kind: 'usd_total' } });
    await setPrice('mock/echo-priced', null);
  });
});
