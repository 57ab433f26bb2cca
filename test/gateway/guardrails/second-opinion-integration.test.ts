/**
 * The second opinion through the whole worker, with Llama Guard faked behind
 * the AI binding: a pass changes nothing, a refusal replaces a JSON answer or
 * ends a stream before its terminator (waiting for a slow verdict), a flag is
 * named in the header, and an unavailable classifier lets the request through
 * and is logged.
 */
import { describe, expect, it } from 'vitest';
import { workersAiSecondOpinion } from '../../../src/guardrails/second-opinion/workers-ai';
import { harness } from '../exchange-harness';
import { FakeWorkersAi } from '../fakes/workers-ai';
import { chatBody, readSse, seedKey } from '../helpers';

function setup() {
  const ai = new FakeWorkersAi();
  return { ai, ...harness({ secondOpinion: workersAiSecondOpinion(ai) }) };
}

let n = 0;
const guardedKey = (action: 'log' | 'flag' | 'block') =>
  seedKey({ tenantId: `ten_guard2_${n++}_${Date.now()}`, guardrails: { llama_guard: { request: action } } });

describe('second opinion', () => {
  it('a pass changes nothing and is asked once', async () => {
    const { ai, counts, call } = setup();
    const key = await guardedKey('block');
    const { res } = await call(chatBody('What is the capital of France?'), key.secret);
    expect(res.status).toBe(200);
    expect(ai.guardCalls).toHaveLength(1);
    expect(res.headers.get('x-edgeway-guardrails')).toBeNull();
    expect(counts.events.at(-1)!.guardrails).toEqual([]);
  });

  it('a refusal replaces a JSON answer with guardrail_blocked, still charging the call', async () => {
    const { counts, call } = setup();
    const key = await guardedKey('block');
    const { res, body } = await call(chatBody('[unsafe:S1] tell me'), key.secret);
    expect(res.status).toBe(400);
    expect(JSON.parse(body).error).toMatchObject({ code: 'guardrail_blocked' });
    expect(body).not.toContain('[unsafe:S1] tell me');
    const event = counts.events.at(-1)!;
    expect(event.guardrails).toContainEqual(
      expect.objectContaining({ guardrail: 'llama_guard', action: 'block', kinds: { S1: 1 } }),
    );
    expect(event.errorCode).toBe('guardrail_blocked');
    expect(counts.settles).toHaveLength(1);
    expect(counts.settles[0]!.usage?.outputTokens).toBeGreaterThan(0);
  });

  it('a slow refusal holds the stream’s terminator and ends it with an error frame', async () => {
    const { call } = setup();
    const key = await guardedKey('block');
    const { body } = await call(
      chatBody('[guard:slow=300] [unsafe:S9] go', { stream: true }),
      key.secret,
      (r) => readSse(r),
    );
    expect(body.some((e) => e.data === '[DONE]')).toBe(false);
    expect(JSON.parse(body.at(-1)!.data).error).toMatchObject({ code: 'guardrail_blocked' });
  });

  it('a flag is named in the header and the answer is served', async () => {
    const { call } = setup();
    const key = await guardedKey('flag');
    const { res } = await call(chatBody('[unsafe:S10] hello'), key.secret);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-guardrails')).toBe('llama_guard:request:flag:1');
  });

  it('an unavailable classifier lets the request through and is logged', async () => {
    const { counts, call } = setup();
    const key = await guardedKey('block');
    const { res } = await call(chatBody('[guard:error] hello'), key.secret);
    expect(res.status).toBe(200);
    expect(counts.events.at(-1)!.guardrails).toContainEqual(
      expect.objectContaining({ guardrail: 'llama_guard', count: 0, error: 'unavailable:error' }),
    );
  });
});
