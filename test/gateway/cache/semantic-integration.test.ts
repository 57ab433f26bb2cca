import { describe, expect, it } from 'vitest';
import { chatBody, post, seedKey } from '../helpers';

const semanticKey = (tenantId?: string) => seedKey({ tenantId, cache: { semantic: true, threshold: 0.8 } });
const ask = (text: string, extra: Record<string, unknown> = {}) =>
  chatBody(text, { temperature: 0, ...extra });

/** Semantic writes happen in waitUntil; poll (bounded) until the paraphrase is answered from the index. */
async function askUntilSemantic(secret: string, text: string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 40; i++) {
    const res = await post('/v1/chat/completions', ask(text), secret, {
      'x-edgeway-cache': 'no-store',
      ...headers,
    });
    if (res.headers.get('x-edgeway-cache') === 'SEMANTIC') return res;
    await res.text();
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

describe('semantic cache', () => {
  it('answers a paraphrase from the cache with SEMANTIC and the similarity score', async () => {
    const { secret } = await semanticKey();
    const original = 'What is the best way to learn the Rust programming language quickly?';
    const first = await post('/v1/chat/completions', ask(original), secret);
    expect(first.headers.get('x-edgeway-cache')).toBe('MISS');
    const answer = (await first.json()) as { choices: { message: { content: string } }[] };
    const hit = await askUntilSemantic(
      secret,
      'what is the best way to learn the rust programming language quickly',
    );
    expect(hit).not.toBeNull();
    expect(Number(hit!.headers.get('x-edgeway-cache-similarity'))).toBeGreaterThanOrEqual(0.8);
    expect(((await hit!.json()) as typeof answer).choices[0]!.message.content).toBe(
      answer.choices[0]!.message.content,
    );
  });

  it('never matches across tenants, even for identical text', async () => {
    const a = await semanticKey('ten_sem_a');
    const b = await semanticKey('ten_sem_b');
    const text = 'How do I reset a forgotten router password at home?';
    await (await post('/v1/chat/completions', ask(text), a.secret)).text();
    expect(
      await askUntilSemantic(a.secret, 'how do I reset a forgotten router password at home'),
    ).not.toBeNull();
    const other = await post(
      '/v1/chat/completions',
      ask('how do I reset a forgotten router password at home'),
      b.secret,
    );
    expect(other.headers.get('x-edgeway-cache')).toBe('MISS');
  });

  it('never matches across models or system prompts', async () => {
    const { secret } = await semanticKey();
    const text = 'Explain how vaccines train the immune system to respond.';
    await (await post('/v1/chat/completions', ask(text), secret)).text();
    expect(
      await askUntilSemantic(secret, 'explain how vaccines train the immune system to respond'),
    ).not.toBeNull();
    const otherModel = await post(
      '/v1/chat/completions',
      ask('explain how vaccines train the immune system to respond', { model: 'mock/mock-small' }),
      secret,
    );
    expect(otherModel.headers.get('x-edgeway-cache')).toBe('MISS');
    const withSystem = chatBody('explain how vaccines train the immune system to respond', {
      temperature: 0,
    });
    withSystem.messages.unshift({ role: 'system', content: 'Answer like a pirate.' });
    const otherSystem = await post('/v1/chat/completions', withSystem, secret);
    expect(otherSystem.headers.get('x-edgeway-cache')).toBe('MISS');
  });

  it('skips requests with temperature above 0 unless the key opts in', async () => {
    const { secret } = await semanticKey();
    const text = 'Which planets in the solar system have rings around them?';
    await (await post('/v1/chat/completions', chatBody(text, { temperature: 0.7 }), secret)).text();
    const res = await post(
      '/v1/chat/completions',
      chatBody('which planets in the solar system have rings around them', { temperature: 0.7 }),
      secret,
    );
    expect(res.headers.get('x-edgeway-cache')).toBe('MISS');
  });

  it('keeps a cf-aig-cache-key namespace separate', async () => {
    const { secret } = await semanticKey();
    const text = 'What are good stretches for lower back pain relief?';
    await (await post('/v1/chat/completions', ask(text), secret, { 'cf-aig-cache-key': 'ns-a' })).text();
    expect(
      await askUntilSemantic(secret, 'what are good stretches for lower back pain relief', {
        'cf-aig-cache-key': 'ns-a',
      }),
    ).not.toBeNull();
    const other = await post(
      '/v1/chat/completions',
      ask('what are good stretches for lower back pain relief'),
      secret,
      { 'cf-aig-cache-key': 'ns-b' },
    );
    expect(other.headers.get('x-edgeway-cache')).toBe('MISS');
  });
});
