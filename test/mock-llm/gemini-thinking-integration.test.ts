import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { promptTokens } from '../../workers/mock-llm/src/text';
import { BASE } from './helpers';

type Json = Record<string, unknown>;
const HELLO = [{ role: 'user', parts: [{ text: 'Hello there, mock.' }] }];

const call = (path: string, body: unknown) =>
  SELF.fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'x-goog-api-key': 'k', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function generate(body: Json, model = 'gemini-2.5-flash'): Promise<Json> {
  const res = await call(`/v1beta/models/${model}:generateContent`, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Json;
}

const partsOf = (body: Json) => (body.candidates as { content: { parts: Json[] } }[])[0]!.content.parts;

describe('Gemini fake: thinking', () => {
  it('returns a thought part first, a signed answer part, and thoughtsTokenCount apart from candidates', async () => {
    const body = await generate({
      contents: HELLO,
      generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 10 } },
    });
    const [thought, answer] = partsOf(body) as [Json, Json];
    expect(thought.thought).toBe(true);
    expect(String(thought.text).split(' ')).toHaveLength(10);
    expect(answer.thoughtSignature).toEqual(expect.any(String));
    expect(body.usageMetadata).toMatchObject({
      thoughtsTokenCount: 10,
      candidatesTokenCount: 16,
      totalTokenCount: (body.usageMetadata as { promptTokenCount: number }).promptTokenCount + 26,
    });
  });

  it('counts thoughts without showing them unless includeThoughts, by thinkingLevel', async () => {
    const body = await generate({
      contents: HELLO,
      generationConfig: { thinkingConfig: { thinkingLevel: 'low' } },
    });
    expect(partsOf(body)).toHaveLength(1);
    expect((body.usageMetadata as Json).thoughtsTokenCount).toBe(8);
    const res = await call('/v1beta/models/gemini-3-pro:generateContent', {
      contents: HELLO,
      generationConfig: { thinkingConfig: { thinkingLevel: 'low', thinkingBudget: 100 } },
    });
    expect(res.status).toBe(400);
  });

  it('checks thought signatures sent back in model turns', async () => {
    const first = await generate({
      contents: HELLO,
      generationConfig: { thinkingConfig: { thinkingBudget: 4 } },
    });
    const replay = (part: Json) => ({
      contents: [...HELLO, { role: 'model', parts: [part] }, { role: 'user', parts: [{ text: 'more' }] }],
    });
    const part = partsOf(first)[0] as Json;
    await generate(replay(part));
    const forged = await call(
      '/v1beta/models/gemini-2.5-flash:generateContent',
      replay({ ...part, text: 'edited' }),
    );
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { error: { message: string } }).error.message).toMatch(
      /contents\[1\]\.parts\[0\]\.thought_signature: Corrupted thought signature/,
    );
  });
});

describe('Gemini fake: structured output, countTokens, implicit caching', () => {
  it('answers responseJsonSchema and responseSchema with JSON valid for the schema', async () => {
    const json = await generate({
      contents: HELLO,
      generationConfig: {
        responseMimeType: 'application/json',
        responseJsonSchema: {
          type: 'object',
          properties: { n: { type: 'integer', minimum: 2 } },
          required: ['n'],
        },
      },
    });
    expect(JSON.parse(String(partsOf(json)[0]?.text))).toEqual({ n: 2 });
    const google = await generate({
      contents: HELLO,
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { ok: { type: 'BOOLEAN' } } },
      },
    });
    expect(JSON.parse(String(partsOf(google)[0]?.text))).toEqual({ ok: true });
  });

  it('answers text/x.enum with the first enum value as plain text', async () => {
    const body = await generate({
      contents: HELLO,
      generationConfig: {
        responseMimeType: 'text/x.enum',
        responseSchema: { type: 'STRING', enum: ['sunny', 'rainy'] },
      },
    });
    expect(partsOf(body)[0]?.text).toBe('sunny');
  });

  it('counts tokens for contents or a generateContentRequest', async () => {
    const expected = promptTokens([{ content: HELLO[0]!.parts }]);
    const plain = await call('/v1beta/models/gemini-2.5-flash:countTokens', { contents: HELLO });
    expect(await plain.json()).toMatchObject({ totalTokens: expected });
    const wrapped = await call('/v1beta/models/gemini-2.5-flash:countTokens', {
      generateContentRequest: {
        model: 'models/gemini-2.5-flash',
        contents: HELLO,
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
      },
    });
    expect(((await wrapped.json()) as { totalTokens: number }).totalTokens).toBe(
      promptTokens([{ content: [{ text: 'Be brief.' }] }, { content: HELLO[0]!.parts }]),
    );
  });

  it('reports cachedContentTokenCount for a repeated prompt', async () => {
    const contents = [{ role: 'user', parts: [{ text: `${crypto.randomUUID()} repeated` }] }];
    const body = { contents, mock: { cache_min_tokens: 0 } };
    expect((await generate(body)).usageMetadata).not.toHaveProperty('cachedContentTokenCount');
    const again = (await generate(body)).usageMetadata as Json;
    expect(again.cachedContentTokenCount).toBe(again.promptTokenCount);
  });
});
