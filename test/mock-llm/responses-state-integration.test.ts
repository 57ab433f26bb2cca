import { describe, expect, it } from 'vitest';
import {
  create,
  createStream,
  finalResponse,
  get,
  type Json,
  messageText,
  rejected,
} from './responses-helpers';

type Item = Json & { type: string; id: string };
const text = messageText;

/** A fresh key per test: stored responses are per key. */
const freshKey = (): string => `key-${crypto.randomUUID()}`;

describe('stored responses', () => {
  it('chains previous_response_id: the earlier turns are the context, instructions are not carried over', async () => {
    const key = freshKey();
    const first = await create({ model: 'echo', instructions: 'Old rules.', input: 'first question' }, key);
    const second = await create(
      { model: 'echo', previous_response_id: first.id, input: 'second question' },
      key,
    );
    expect(second.previous_response_id).toBe(first.id);
    expect(second.instructions).toBeNull();
    expect(text(second)).toBe('second question');
    // Prompt: the first user turn, the first answer, the new turn (no system message: instructions stay behind).
    const prompt = 3 + (4 + Math.ceil(14 / 4)) * 2 + (4 + Math.ceil(15 / 4));
    expect((second.usage as Json).input_tokens).toBe(prompt);
  });

  it('answers the tool output of a call made in the previous response', async () => {
    const key = freshKey();
    const tools = [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} } }];
    const call = await create({ model: 'echo', input: 'TOOL lookup {"q":"moon"}', tools }, key);
    const [fc] = call.output as Item[];
    expect(fc?.type).toBe('function_call');
    const answer = await create(
      {
        model: 'echo',
        tools,
        previous_response_id: call.id,
        input: [{ type: 'function_call_output', call_id: fc?.call_id, output: 'full moon' }],
      },
      key,
    );
    expect(text(answer)).toBe('Tool result: full moon');
    // Without the previous response, the output pairs with no call.
    const error = await rejected(
      {
        model: 'echo',
        tools,
        input: [{ type: 'function_call_output', call_id: fc?.call_id, output: 'full moon' }],
      },
      400,
      key,
    );
    expect(error.message).toBe(
      `No tool call found for function call output with call_id ${String(fc?.call_id)}.`,
    );
  });

  it('keeps nothing with store: false: a previous_response_id naming it is previous_response_not_found', async () => {
    const key = freshKey();
    const unstored = await create({ model: 'echo', input: 'hi', store: false }, key);
    expect(unstored.store).toBe(false);
    expect(
      await rejected({ model: 'echo', input: 'again', previous_response_id: unstored.id }, 400, key),
    ).toEqual({
      message: `Previous response with id '${String(unstored.id)}' not found.`,
      type: 'invalid_request_error',
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });
    expect((await get(`/v1/responses/${String(unstored.id)}`, key)).status).toBe(404);
  });

  it('keeps responses per key: another key neither reads nor chains them', async () => {
    const key = freshKey();
    const kept = await create({ model: 'echo', input: 'mine' }, key);
    const other = freshKey();
    const res = await get(`/v1/responses/${String(kept.id)}`, other);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: {
        message: `Response with id '${String(kept.id)}' not found.`,
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    const error = await rejected({ model: 'echo', input: 'x', previous_response_id: kept.id }, 400, other);
    expect(error.code).toBe('previous_response_not_found');
  });

  it('GET returns the response as answered; a streamed response is stored too', async () => {
    const key = freshKey();
    const json = await create({ model: 'mock-small', input: 'stored', metadata: { run: '1' } }, key);
    const res = await get(`/v1/responses/${String(json.id)}`, key);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(json);
    const events = await createStream({ model: 'mock-small', input: 'streamed' }, key);
    const streamed = finalResponse(events);
    expect(await (await get(`/v1/responses/${String(streamed.id)}`, key)).json()).toEqual(streamed);
  });

  it('DELETE forgets a response; a second DELETE and a GET are 404', async () => {
    const key = freshKey();
    const kept = await create({ model: 'echo', input: 'bye' }, key);
    const path = `/v1/responses/${String(kept.id)}`;
    const deleted = await get(path, key, 'DELETE');
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ id: kept.id, object: 'response', deleted: true });
    expect((await get(path, key, 'DELETE')).status).toBe(404);
    expect((await get(path, key)).status).toBe(404);
    const error = await rejected({ model: 'echo', input: 'x', previous_response_id: kept.id }, 400, key);
    expect(error.code).toBe('previous_response_not_found');
  });

  it('lists the request own input items, newest first by default, with ids and cursor paging', async () => {
    const key = freshKey();
    const first = await create({ model: 'echo', input: 'earlier' }, key);
    const kept = await create(
      {
        model: 'echo',
        previous_response_id: first.id,
        input: [
          { role: 'user', content: 'one' },
          { role: 'user', content: [{ type: 'input_text', text: 'two' }] },
          { role: 'user', content: 'three' },
        ],
      },
      key,
    );
    const path = `/v1/responses/${String(kept.id)}/input_items`;
    const page = (await (await get(path, key)).json()) as Json & { data: Item[] };
    expect(page.object).toBe('list');
    expect(page.has_more).toBe(false);
    const texts = page.data.map((i) => (i.content as { text: string }[])[0]?.text);
    expect(texts).toEqual(['three', 'two', 'one']);
    expect(page.data[0]).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      status: 'completed',
      content: [{ type: 'input_text', text: 'three' }],
      role: 'user',
    });
    expect(page.first_id).toBe(page.data[0]?.id);
    expect(page.last_id).toBe(page.data[2]?.id);
    const asc = (await (await get(`${path}?order=asc&limit=2`, key)).json()) as Json & { data: Item[] };
    expect(asc.data.map((i) => i.id)).toEqual([page.data[2]?.id, page.data[1]?.id]);
    expect(asc.has_more).toBe(true);
    const rest = (await (await get(`${path}?order=asc&after=${String(asc.last_id)}`, key)).json()) as Json & {
      data: Item[];
    };
    expect(rest.data.map((i) => i.id)).toEqual([page.data[0]?.id]);
    expect((await get(`${path}?limit=0`, key)).status).toBe(400);
  });

  it('resolves an item_reference to a stored item of the key', async () => {
    const key = freshKey();
    const kept = await create({ model: 'echo', input: 'referenced text' }, key);
    const items = (await (await get(`/v1/responses/${String(kept.id)}/input_items`, key)).json()) as {
      data: Item[];
    };
    const answer = await create(
      { model: 'echo', input: [{ type: 'item_reference', id: items.data[0]?.id }], store: false },
      key,
    );
    expect(text(answer)).toBe('referenced text');
    const error = await rejected(
      { model: 'echo', input: [{ type: 'item_reference', id: 'msg_nope' }] },
      400,
      key,
    );
    expect(error.message).toBe("Item with id 'msg_nope' not found.");
  });

  it('answers 405 for a wrong method and 401 without a key', async () => {
    expect((await get('/v1/responses', 'k')).status).toBe(405);
    expect((await get('/v1/responses/resp_x', '')).status).toBe(401);
  });
});
