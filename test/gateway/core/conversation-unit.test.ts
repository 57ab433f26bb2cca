/**
 * Conversations of POST /v1/responses, pure: a stored response and a new body become the whole conversation
 * (stored context, input, output, then the new input; `previous_response_id` gone, ids of replayed items
 * dropped), a finished answer becomes the record to store (its own input items named and given ids from the
 * response id), pages of input items, and expiry by retention.
 */
import { describe, expect, it } from 'vitest';
import {
  continueConversation,
  conversationOf,
  inputItemsOf,
  recordOf,
  type ResponsesBody,
} from '../../../src/core/conversation';
import { GatewayError } from '../../../src/core/errors';
import { itemPage } from '../../../src/core/item-page';
import { expiryOf, isResponseId, type StoredResponse } from '../../../src/core/stored-response';

const DAY = 86_400_000;

function firstTurn(): StoredResponse {
  return recordOf({
    id: 'resp_one',
    tenantId: 'ten_a',
    keyId: 'key_a',
    model: 'mock/echo',
    createdAt: 1_000,
    expiresAt: 1_000 + DAY,
    body: { model: 'mock/echo', instructions: 'Be terse.', input: 'What is 2+2?' },
    context: 0,
    response: {
      id: 'resp_one',
      object: 'response',
      instructions: 'Be terse.',
      output: [
        { id: 'rs_one_0', type: 'reasoning', summary: [], encrypted_content: 'sealed' },
        {
          id: 'msg_one_1',
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: '4', annotations: [] }],
        },
      ],
    },
  });
}

describe('the input of a Responses request as items', () => {
  it('makes a string one user message, keeps items, and reads no input as none', () => {
    expect(inputItemsOf('hi')).toEqual([{ type: 'message', role: 'user', content: 'hi' }]);
    const items = [{ type: 'function_call_output', call_id: 'c1', output: 'ok' }];
    expect(inputItemsOf(items)).toBe(items);
    expect(inputItemsOf(undefined)).toEqual([]);
  });

  it('refuses an input that is neither a string nor items, naming the field', () => {
    for (const bad of [42, { role: 'user' }, ['text']]) {
      try {
        inputItemsOf(bad);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(GatewayError);
        expect((err as GatewayError).status).toBe(400);
        expect((err as GatewayError).param).toBe('input');
      }
    }
  });
});

describe('the record of a finished answer', () => {
  it("names the request's own input items and gives each an id from the response id", () => {
    const record = firstTurn();
    expect(record.context).toEqual([]);
    expect(record.input).toEqual([
      {
        id: 'msg_one_i0',
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'What is 2+2?' }],
      },
    ]);
    expect(record).toMatchObject({
      v: 1,
      id: 'resp_one',
      tenant_id: 'ten_a',
      key_id: 'key_a',
      model: 'mock/echo',
    });
  });

  it('keeps ids the client gave, types an untyped message, and writes an assistant text as output_text', () => {
    const record = recordOf({
      ...base(),
      body: {
        input: [
          { role: 'assistant', content: 'earlier' },
          { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
          {
            id: 'msg_client',
            type: 'message',
            role: 'developer',
            content: [{ type: 'input_text', text: 'x' }],
          },
        ],
      },
    });
    expect(record.input).toEqual([
      {
        id: 'msg_two_i0',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'earlier', annotations: [] }],
      },
      { id: 'fco_two_i1', type: 'function_call_output', call_id: 'c1', output: 'sunny' },
      { id: 'msg_client', type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'x' }] },
    ]);
  });

  it('splits the expanded input: the leading items are the context, the rest its own input', () => {
    const record = recordOf({
      ...base(),
      body: {
        input: [
          { type: 'message', role: 'user', content: 'old' },
          { type: 'message', role: 'user', content: 'new' },
        ],
      },
      context: 1,
    });
    expect(record.context).toEqual([{ type: 'message', role: 'user', content: 'old' }]);
    expect(record.input).toHaveLength(1);
    expect(record.input[0]).toMatchObject({
      id: 'msg_two_i0',
      content: [{ type: 'input_text', text: 'new' }],
    });
  });
});

function base() {
  return {
    id: 'resp_two',
    tenantId: 'ten_a',
    keyId: 'key_a',
    model: 'mock/echo',
    createdAt: 2_000,
    expiresAt: 2_000 + DAY,
    body: {} as ResponsesBody,
    context: 0,
    response: { id: 'resp_two', output: [] },
  };
}

describe('continuing a stored response', () => {
  it('puts the stored input and output before the new input, without ids, and drops previous_response_id', () => {
    const { body, context } = continueConversation(firstTurn(), {
      model: 'mock/echo',
      previous_response_id: 'resp_one',
      instructions: 'Answer in French.',
      input: 'And 3+3?',
      store: true,
    });
    expect(context).toBe(3);
    expect(body).toEqual({
      model: 'mock/echo',
      instructions: 'Answer in French.',
      store: true,
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is 2+2?' }] },
        { type: 'reasoning', summary: [], encrypted_content: 'sealed' },
        {
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: '4', annotations: [] }],
        },
        { type: 'message', role: 'user', content: 'And 3+3?' },
      ],
    });
  });

  it("does not carry the stored response's instructions over", () => {
    const { body } = continueConversation(firstTurn(), { previous_response_id: 'resp_one', input: 'next' });
    expect(body).not.toHaveProperty('instructions');
    expect(JSON.stringify(body)).not.toContain('Be terse.');
  });

  it('chains: the next record holds the whole earlier conversation as its context', () => {
    const first = firstTurn();
    const next = {
      previous_response_id: 'resp_one',
      input: [{ type: 'message', role: 'user', content: 'And 3+3?' }],
    };
    const expanded = continueConversation(first, next);
    const second = recordOf({
      ...base(),
      body: expanded.body,
      context: expanded.context,
      response: {
        id: 'resp_two',
        output: [
          {
            id: 'msg_two_0',
            type: 'message',
            role: 'assistant',
            content: [{ type: 'output_text', text: '6' }],
          },
        ],
      },
    });
    expect(second.context).toEqual(conversationOf(first));
    expect(second.input.map((item) => item.id)).toEqual(['msg_two_i0']);
    const third = continueConversation(second, { input: 'And 4+4?' });
    expect(third.context).toBe(5);
    expect(third.body.input).toEqual([
      ...conversationOf(first),
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And 3+3?' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '6' }] },
      { type: 'message', role: 'user', content: 'And 4+4?' },
    ]);
  });
});

describe('a page of input items', () => {
  const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, type: 'message' }));
  const ids = (page: ReturnType<typeof itemPage>) => page.data.map((item) => item.id);

  it('lists newest first by default, with first_id, last_id and has_more', () => {
    const page = itemPage(items, { limit: 2, order: 'desc', after: null });
    expect(ids(page)).toEqual(['e', 'd']);
    expect(page).toMatchObject({ object: 'list', first_id: 'e', last_id: 'd', has_more: true });
  });

  it('goes on after an item, in either order, to the end', () => {
    expect(ids(itemPage(items, { limit: 2, order: 'desc', after: 'd' }))).toEqual(['c', 'b']);
    const last = itemPage(items, { limit: 10, order: 'asc', after: 'c' });
    expect(ids(last)).toEqual(['d', 'e']);
    expect(last.has_more).toBe(false);
  });

  it('gives an empty page for an after that names no item', () => {
    const page = itemPage(items, { limit: 10, order: 'asc', after: 'zzz' });
    expect(page).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
  });
});

describe('retention and ids', () => {
  it("expires by the tenant's days, else the deployment's; 0 days keeps nothing", () => {
    expect(expiryOf(1_000, null, 30)).toBe(1_000 + 30 * DAY);
    expect(expiryOf(1_000, 7, 30)).toBe(1_000 + 7 * DAY);
    expect(expiryOf(1_000, 0, 30)).toBeNull();
    expect(expiryOf(1_000, null, 0)).toBeNull();
  });

  it('takes only ids of the shape responses have', () => {
    expect(isResponseId('resp_0123abc-_X')).toBe(true);
    for (const bad of ['', 'a/b', '../x', 'resp 1', 'x'.repeat(201)]) expect(isResponseId(bad)).toBe(false);
  });
});
