/**
 * The stored-response stage of POST /v1/responses with the real store (R2 and D1): a body without
 * previous_response_id passes untouched and unread; one naming a response of the caller's tenant becomes the
 * whole conversation, and any other is a 400 previous_response_not_found; an answer is stored (awaited, its
 * index row kept alive by the exchange) by the tenant's retention, not at all for `store: false` or 0 days,
 * and a failed store is logged without failing.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../../src/core/errors';
import { KeyRecord } from '../../../src/core/key-record';
import { getDeps } from '../../../src/deps';
import type { GatewayCall } from '../../../src/pipeline/call';
import { expandConversation, keepResponse, storedUntil } from '../../../src/pipeline/conversation';
import { openExchange } from '../../../src/pipeline/exit';
import type { Deps } from '../../../src/ports';
import type { ResponseStore } from '../../../src/storage/response-store';
import { bindings } from '../log-fixtures';

const DAY = 86_400_000;

function principalOf(tenantId: string, retention: number | null = null) {
  return KeyRecord.parse({
    id: 'key_conv',
    tenantId,
    status: 'active',
    models: null,
    expiresAt: null,
    tenantResponsesRetentionDays: retention,
  });
}

const tenant = () => `ten_conv_${crypto.randomUUID().slice(0, 8)}`;
const responseId = () => `resp_conv_${crypto.randomUUID().replaceAll('-', '')}`;

function callWith(over: Partial<Deps> = {}) {
  const ctx = createExecutionContext();
  const deps = { ...getDeps(bindings), ...over };
  const call: GatewayCall = {
    request: new Request('http://gw.test/v1/responses', { method: 'POST' }),
    env: bindings,
    ctx,
    deps,
    exchange: openExchange('/v1/responses', ctx),
  };
  return { call, ctx, deps };
}

function answer(id: string, text: string) {
  return {
    id,
    object: 'response',
    model: 'mock/echo',
    output: [
      {
        id: `msg_${id}_0`,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    ],
  };
}

const rejectingStore = (message: string): ResponseStore => ({
  put: () => Promise.reject(new Error(message)),
  get: () => Promise.reject(new Error(message)),
  delete: () => Promise.reject(new Error(message)),
  inputItems: () => Promise.reject(new Error(message)),
  sweep: () => Promise.reject(new Error(message)),
});

describe('expanding a conversation', () => {
  it('passes a body without previous_response_id as it is, reading nothing', async () => {
    const { call } = callWith({ responses: rejectingStore('no read expected') });
    const body = { model: 'mock/echo', input: 'hi' };
    const expanded = await expandConversation(call, principalOf(tenant()), body);
    expect(expanded.body).toBe(body);
    expect(expanded.conversation).toEqual({ previousResponseId: null, context: 0 });
  });

  it('continues a stored response over turns, and stores each turn', async () => {
    const who = principalOf(tenant());
    const first = responseId();
    const one = callWith();
    const body1 = { model: 'mock/echo', input: 'What is 2+2?' };
    const expanded1 = await expandConversation(one.call, who, body1);
    expect(
      await keepResponse(one.call, who, expanded1.conversation, bodyOf(expanded1), answer(first, '4')),
    ).toBe('stored');
    await waitOnExecutionContext(one.ctx);
    // The index row went through the request's waitUntil (the exchange keeps it alive).
    const row = await bindings.DB.prepare(
      'SELECT key_id FROM stored_responses WHERE tenant_id = ? AND id = ?',
    )
      .bind(who.tenantId, first)
      .first();
    expect(row).toEqual({ key_id: 'key_conv' });

    const second = responseId();
    const two = callWith();
    const expanded2 = await expandConversation(two.call, who, {
      model: 'mock/echo',
      previous_response_id: first,
      input: 'And 3+3?',
    });
    expect(expanded2.conversation).toEqual({ previousResponseId: first, context: 2 });
    // Kept for the answer's echo; the codecs never send it upstream.
    expect(bodyOf(expanded2).previous_response_id).toBe(first);
    expect(bodyOf(expanded2).input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is 2+2?' }] },
      answer(first, '4').output.map(({ id: _id, ...item }) => item)[0],
      { type: 'message', role: 'user', content: 'And 3+3?' },
    ]);
    await keepResponse(two.call, who, expanded2.conversation, bodyOf(expanded2), answer(second, '6'));
    await waitOnExecutionContext(two.ctx);

    const stored = await two.deps.responses.get(who.tenantId, second, Date.now());
    expect(stored?.input).toHaveLength(1);
    expect(stored?.context).toHaveLength(2);
    const three = await expandConversation(callWith().call, who, {
      previous_response_id: second,
      input: 'x',
    });
    expect(three.conversation.context).toBe(4);
  });

  it("answers a missing, or another tenant's, previous response with a 400 naming the field", async () => {
    const owner = principalOf(tenant());
    const id = responseId();
    const { call } = callWith();
    await keepResponse(
      call,
      owner,
      { previousResponseId: null, context: 0 },
      { input: 'x' },
      answer(id, 'y'),
    );
    for (const [who, previous] of [
      [principalOf(tenant()), id],
      [owner, responseId()],
    ] as const) {
      const err = await expandConversation(callWith().call, who, { previous_response_id: previous }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(GatewayError);
      expect(err).toMatchObject({
        status: 400,
        code: 'previous_response_not_found',
        param: 'previous_response_id',
        message: `Previous response with id '${previous}' not found.`,
      });
    }
  });

  it('refuses a previous_response_id that is not a string', async () => {
    const err = await expandConversation(callWith().call, principalOf(tenant()), {
      previous_response_id: 7,
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, param: 'previous_response_id' });
  });
});

describe('resolving item references', () => {
  it("replaces references to the caller's stored items, leaves a provider's own as sent, and finds no other tenant's", async () => {
    const owner = principalOf(tenant());
    const base = crypto.randomUUID().replaceAll('-', '');
    const id = `resp_${base}`;
    const reply = {
      id: `msg_${base}_0`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: '4', annotations: [] }],
    };
    const kept = await keepResponse(
      callWith().call,
      owner,
      { previousResponseId: null, context: 0 },
      { input: 'What is 2+2?' },
      { id, object: 'response', model: 'claude-only/echo', output: [reply] },
    );
    expect(kept).toBe('stored');
    const input = [
      { type: 'item_reference', id: `msg_${base}_i0` },
      { type: 'item_reference', id: `msg_${base}_0` },
      { role: 'user', content: 'And 3+3?' },
      { type: 'item_reference', id: 'msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b' },
    ];
    const expanded = await expandConversation(callWith().call, owner, { model: 'm', input });
    const { id: _id, ...replayed } = reply;
    expect(bodyOf(expanded).input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is 2+2?' }] },
      replayed,
      input[2],
      input[3],
    ]);
    expect(expanded.conversation).toEqual({ previousResponseId: null, context: 0 });

    // Another tenant's key finds nothing: the item it names is not found, as OpenAI answers.
    const stranger = await expandConversation(callWith().call, principalOf(tenant()), {
      model: 'm',
      input,
    }).catch((e: unknown) => e);
    expect(stranger).toMatchObject({
      status: 400,
      code: 'item_not_found',
      param: 'input',
      message: `Item with id 'msg_${base}_i0' not found.`,
    });
  });

  it('reads nothing for an input without references', async () => {
    const { call } = callWith({ responses: rejectingStore('no read expected') });
    const body = { model: 'm', input: [{ role: 'user', content: 'hi' }] };
    expect((await expandConversation(call, principalOf(tenant()), body)).body).toBe(body);
  });
});

describe('keeping a response', () => {
  const none = { previousResponseId: null, context: 0 };

  it("expires by the tenant's retention, else the deployment's 30 days", async () => {
    for (const [days, expected] of [
      [null, 30],
      [2, 2],
    ] as const) {
      const who = principalOf(tenant(), days);
      const id = responseId();
      const { call, deps } = callWith();
      const before = Date.now();
      await keepResponse(call, who, none, { input: 'x' }, answer(id, 'y'));
      const record = await deps.responses.get(who.tenantId, id, Date.now());
      expect(record?.expires_at).toBeGreaterThanOrEqual(before + expected * DAY);
      expect(record?.expires_at).toBeLessThanOrEqual(Date.now() + expected * DAY);
      expect(record).toMatchObject({ tenant_id: who.tenantId, key_id: 'key_conv', model: 'mock/echo' });
    }
  });

  it('says beforehand whether, and until when, an answer will be stored', () => {
    const { call } = callWith();
    expect(storedUntil(call, principalOf(tenant()), { input: 'x' }, 1_000)).toBe(1_000 + 30 * DAY);
    expect(storedUntil(call, principalOf(tenant(), 1), { store: true }, 1_000)).toBe(1_000 + DAY);
    expect(storedUntil(call, principalOf(tenant()), { store: false }, 1_000)).toBeNull();
    expect(storedUntil(call, principalOf(tenant(), 0), {}, 1_000)).toBeNull();
  });

  it('keeps nothing for store: false, or for a tenant whose retention is 0 days', async () => {
    const cases = [
      [principalOf(tenant()), { input: 'x', store: false }],
      [principalOf(tenant(), 0), { input: 'x' }],
    ] as const;
    for (const [who, body] of cases) {
      const id = responseId();
      const { call, deps } = callWith();
      expect(await keepResponse(call, who, none, body, answer(id, 'y'))).toBe('not_stored');
      expect(await deps.responses.get(who.tenantId, id, Date.now())).toBeNull();
    }
  });

  it('records the model the client named, as the log has it', async () => {
    const who = principalOf(tenant());
    const id = responseId();
    const { call, deps } = callWith();
    call.exchange.model = 'my-route';
    await keepResponse(call, who, none, { input: 'x' }, answer(id, 'y'));
    expect((await deps.responses.get(who.tenantId, id, Date.now()))?.model).toBe('my-route');
  });

  it('does not store an answer that is not a Responses object, and says so', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { call } = callWith();
      const who = principalOf(tenant());
      expect(await keepResponse(call, who, none, { input: 'x' }, { object: 'response', output: [] })).toBe(
        'failed',
      );
      expect(await keepResponse(call, who, none, { input: 'x' }, { id: 'resp_x', output: 'text' })).toBe(
        'failed',
      );
    } finally {
      errors.mockRestore();
    }
  });

  it('logs a failed store and does not fail', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { call } = callWith({ responses: rejectingStore('R2 is down') });
      const kept = await keepResponse(
        call,
        principalOf(tenant()),
        none,
        { input: 'x' },
        answer(responseId(), 'y'),
      );
      expect(kept).toBe('failed');
      const line = errors.mock.calls
        .map((args) => String(args[0]))
        .find((l) => l.includes('edgeway_store_failed'));
      expect(JSON.parse(line ?? '{}')).toEqual({
        edgeway_store_failed: { request_id: call.exchange.id, reason: 'R2 is down' },
      });
    } finally {
      errors.mockRestore();
    }
  });
});

function bodyOf(expanded: { body: unknown }): Record<string, unknown> {
  return expanded.body as Record<string, unknown>;
}
