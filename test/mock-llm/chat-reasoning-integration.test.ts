import { describe, expect, it } from 'vitest';
import { chunksOf, parseSse, postOpenAI, USER_HELLO } from './helpers';

interface Completion {
  choices: { message: { content: string | null; reasoning_content?: string }; finish_reason: string }[];
  usage: { completion_tokens: number; completion_tokens_details: { reasoning_tokens: number } };
}

async function chat(body: Record<string, unknown>): Promise<Completion> {
  const res = await postOpenAI('/v1/chat/completions', { messages: USER_HELLO, ...body });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Completion;
}

async function chatError(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await postOpenAI('/v1/chat/completions', { messages: USER_HELLO, ...body });
  expect(res.status).toBe(400);
  return ((await res.json()) as { error: Record<string, unknown> }).error;
}

describe('chat: reasoning models', () => {
  it('counts reasoning tokens by effort inside completion_tokens for o-series and gpt-5 models', async () => {
    const medium = await chat({ model: 'gpt-5-mini' });
    expect(medium.usage.completion_tokens_details.reasoning_tokens).toBe(16);
    expect(medium.usage.completion_tokens).toBe(16 + 16);
    expect(medium.choices[0]?.message).not.toHaveProperty('reasoning_content');
    const high = await chat({ model: 'o4-mini', reasoning_effort: 'high' });
    expect(high.usage.completion_tokens_details.reasoning_tokens).toBe(24);
    const none = await chat({ model: 'gpt-5.1', reasoning_effort: 'none' });
    expect(none.usage.completion_tokens_details.reasoning_tokens).toBe(0);
    expect((await chat({ model: 'mock-small' })).usage.completion_tokens_details.reasoning_tokens).toBe(0);
  });

  it('refuses reasoning_effort for a model that does not reason, and an unknown effort', async () => {
    expect(await chatError({ model: 'gpt-4o', reasoning_effort: 'low' })).toMatchObject({
      message: "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
      param: 'reasoning_effort',
      code: 'unsupported_parameter',
    });
    expect(await chatError({ model: 'o3', reasoning_effort: 'huge' })).toMatchObject({
      param: 'reasoning_effort',
      code: 'invalid_value',
    });
  });

  it('returns the reasoning text in reasoning_content for think/reason models, streamed before the content', async () => {
    const body = await chat({ model: 'echo-think', reasoning_effort: 'low' });
    const message = body.choices[0]!.message;
    expect(message.content).toBe('Hello there, mock.');
    expect(message.reasoning_content?.split(' ')).toHaveLength(8);
    const res = await postOpenAI('/v1/chat/completions', {
      model: 'echo-think',
      reasoning_effort: 'low',
      messages: USER_HELLO,
      stream: true,
    });
    const chunks = chunksOf(parseSse(await res.text()));
    const deltas = chunks.map((c) => c.choices[0]?.delta as Record<string, string> | undefined);
    const firstContent = deltas.findIndex((d) => d?.content !== undefined && d.content !== '');
    const reasoningAt = deltas.flatMap((d, i) => (d?.reasoning_content !== undefined ? [i] : []));
    expect(reasoningAt).toHaveLength(8);
    expect(Math.max(...reasoningAt)).toBeLessThan(firstContent);
    expect(deltas.map((d) => d?.reasoning_content ?? '').join('')).toBe(message.reasoning_content);
  });
});

describe('chat: structured outputs', () => {
  it('answers response_format json_schema with a document valid for the schema', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 3 } },
      required: ['city', 'days'],
    };
    const body = await chat({
      model: 'mock-small',
      response_format: { type: 'json_schema', json_schema: { name: 'trip', strict: true, schema } },
    });
    expect(JSON.parse(body.choices[0]!.message.content as string)).toEqual({ city: 'string', days: 3 });
  });

  it('answers json_object with a JSON object, and validates the format', async () => {
    const body = await chat({ model: 'echo', response_format: { type: 'json_object' } });
    expect(JSON.parse(body.choices[0]!.message.content as string)).toEqual({ text: 'Hello there, mock.' });
    expect(await chatError({ model: 'echo', response_format: { type: 'yaml' } })).toMatchObject({
      param: 'response_format.type',
    });
    expect(
      await chatError({
        model: 'echo',
        response_format: { type: 'json_schema', json_schema: { schema: {} } },
      }),
    ).toMatchObject({
      param: 'response_format.json_schema.name',
      code: 'missing_required_parameter',
    });
  });

  it('accepts system and developer messages anywhere', async () => {
    const body = await chat({
      model: 'echo',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'developer', content: 'be brief' },
        { role: 'assistant', content: 'ok' },
        { role: 'system', content: 'late system' },
        { role: 'user', content: 'second' },
      ],
    });
    expect(body.choices[0]?.message.content).toBe('second');
  });
});
