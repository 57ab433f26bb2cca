import { describe, expect, it } from 'vitest';
import { chatBody, post, readSse } from '../helpers';
import { limitedKey, settledDump } from '../limits-helpers';

const TEXT = 'alpha beta gamma delta epsilon zeta eta theta';
// 3 + 4 + ⌈45 / 4⌉: the prompt estimate, and the mock's own count for ASCII text.
const PROMPT = 3 + 4 + Math.ceil(TEXT.length / 4);

function deliveredText(events: { data: string }[]): string {
  let text = '';
  for (const e of events) {
    if (!e.data.startsWith('{')) continue;
    const chunk = JSON.parse(e.data) as { choices?: { delta?: { content?: string } }[] };
    text += chunk.choices?.[0]?.delta?.content ?? '';
  }
  return text;
}

describe('settling streams', () => {
  it('charges a stream cut midway the prompt estimate plus what was delivered', async () => {
    const { secret, tenantId, keyId } = await limitedKey({ budgets: { tokens: { day: 100_000 } } });
    const res = await post(
      '/v1/chat/completions',
      chatBody(TEXT, { stream: true, mock: { cut_after: 3 } }),
      secret,
    );
    expect(res.status).toBe(200);
    const events = await readSse(res);
    const delivered = deliveredText(events);
    expect(delivered).toBe('alpha beta gamma');
    expect(events.at(-1)?.data).toContain('stream_incomplete');

    const key = await settledDump(tenantId, keyId);
    expect(key.state.ledger.day).toMatchObject({
      tokensSpent: PROMPT + Math.ceil(delivered.length / 4),
      tokensHeld: 0,
    });
  });

  it("charges a completed stream exactly its usage chunk, which the gateway asks for on the client's behalf", async () => {
    const { secret, tenantId, keyId } = await limitedKey({ budgets: { tokens: { day: 100_000 } } });
    const res = await post('/v1/chat/completions', chatBody(TEXT, { stream: true }), secret);
    expect(res.status).toBe(200);
    await readSse(res);
    const key = await settledDump(tenantId, keyId);
    expect(key.state.ledger.day.tokensSpent).toBe(PROMPT + 8);
  });

  it('charges a cut Anthropic stream at least the output it delivered, despite the partial usage', async () => {
    const { secret, tenantId, keyId } = await limitedKey({ budgets: { tokens: { day: 100_000 } } });
    const body = {
      model: 'mock/echo',
      max_tokens: 100,
      stream: true,
      messages: [{ role: 'user', content: TEXT }],
      mock: { cut_after: 5 },
    };
    const res = await post('/v1/messages', body, secret);
    expect(res.status).toBe(200);
    const events = await readSse(res);
    const delivered = events
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (JSON.parse(e.data) as { delta: { text: string } }).delta.text)
      .join('');
    expect(delivered).toBe('alpha beta gamma delta epsilon');
    const key = await settledDump(tenantId, keyId);
    // message_start reported the input (the same count) and output_tokens: 1; the delivered text says more.
    expect(key.state.ledger.day.tokensSpent).toBe(PROMPT + Math.ceil(delivered.length / 4));
  });

  it('releases the reservation of a request the provider refused', async () => {
    const { secret, tenantId, keyId } = await limitedKey({ budgets: { tokens: { day: 100_000 } } });
    const res = await post(
      '/v1/chat/completions',
      chatBody(TEXT, { stream: true, mock: { status: 500 } }),
      secret,
    );
    expect(res.status).toBe(500);
    const key = await settledDump(tenantId, keyId);
    expect(key.state.ledger.day).toMatchObject({ tokensSpent: 0, tokensHeld: 0 });
    expect(key.state.requests.cur).toBe(1);
  });
});
