/**
 * The official `openai` SDK against the mock's Responses API, in the Workers
 * runtime: `responses.create`, `responses.stream` (whose accumulator rebuilds
 * the response from the events and throws on an event that does not fit),
 * `retrieve`, `inputItems.list` and `delete`, so the wire format is checked by
 * OpenAI's own client as well as by the field lists of responses-helpers.ts.
 */
import { SELF } from 'cloudflare:test';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';

const client = new OpenAI({
  apiKey: `sdk-${crypto.randomUUID()}`,
  baseURL: 'http://mock/v1',
  fetch: (input, init) => SELF.fetch(input, init),
  maxRetries: 0,
});

const WEATHER = {
  type: 'function' as const,
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  strict: false,
};

describe('openai SDK against /v1/responses', () => {
  it('creates, retrieves, lists input items and deletes a response', async () => {
    const created = await client.responses.create({ model: 'echo', input: 'Hello SDK' });
    expect(created.output_text).toBe('Hello SDK');
    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved.output_text).toBe('Hello SDK');
    const items = await client.responses.inputItems.list(created.id);
    expect(items.data).toHaveLength(1);
    expect(items.data[0]).toMatchObject({ type: 'message', role: 'user' });
    await client.responses.delete(created.id);
    await expect(client.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('streams reasoning and a tool call; the accumulated response equals response.completed', async () => {
    const stream = client.responses.stream({
      model: 'o4-mini',
      input: 'TOOL get_weather {"city":"Lima"}',
      tools: [WEATHER],
      reasoning: { effort: 'low', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    });
    const seen: string[] = [];
    stream.on('event', (event) => seen.push(event.type));
    const final = await stream.finalResponse();
    expect(seen.at(-1)).toBe('response.completed');
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    const call = final.output[1];
    expect(call?.type === 'function_call' && call.arguments).toBe('{"city":"Lima"}');

    const next = await client.responses.create({
      model: 'o4-mini',
      previous_response_id: final.id,
      tools: [WEATHER],
      input: [
        {
          type: 'function_call_output',
          call_id: call?.type === 'function_call' ? call.call_id : '',
          output: 'warm',
        },
      ],
    });
    expect(next.status).toBe('completed');
    expect(next.previous_response_id).toBe(final.id);
  });

  it('streams text whose accumulated output_text matches the JSON answer', async () => {
    const params = { model: 'mock-small', input: 'Some words please', store: false };
    const stream = client.responses.stream(params);
    const final = await stream.finalResponse();
    const json = await client.responses.create(params);
    expect(final.output_text).toBe(json.output_text);
    expect(final.output_text.split(' ')).toHaveLength(16);
  });

  it('parses a json_schema answer with responses.parse', async () => {
    const parsed = await client.responses.parse({
      model: 'mock-small',
      input: 'A city',
      text: {
        format: {
          type: 'json_schema',
          name: 'city',
          strict: true,
          schema: {
            type: 'object',
            properties: { name: { type: 'string' }, population: { type: 'integer', minimum: 1 } },
            required: ['name', 'population'],
            additionalProperties: false,
          },
        },
      },
    });
    expect(parsed.output_parsed).toEqual({ name: 'string', population: 1 });
  });
});
