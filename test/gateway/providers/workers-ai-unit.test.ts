import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../../src/env';
import { buildRegistry } from '../../../src/providers/registry';
import type { ProviderAdapter, UpstreamTarget } from '../../../src/providers/types';
import { bindingFailure, workersAiAdapter, workersAiEntry } from '../../../src/providers/workers-ai';
import { FakeWorkersAi } from '../fakes/workers-ai';

const LLAMA = '@cf/meta/llama-3.1-8b-instruct';
const HELLO = { messages: [{ role: 'user', content: 'Hello there' }], max_tokens: 32 };

function target(
  adapter: ProviderAdapter,
  model = LLAMA,
  stream = false,
  endpoint: 'chat' | 'embeddings' = 'chat',
) {
  const t = adapter.prepare({ endpoint, model, stream, passHeaders: [] });
  if (!t) throw new Error('not served');
  return t;
}

const send = (
  adapter: ProviderAdapter,
  t: UpstreamTarget,
  body: unknown,
  signal = new AbortController().signal,
) => adapter.send(t, JSON.stringify(body), signal);

describe('the Workers AI adapter', () => {
  it('calls the binding with the model and inputs, and answers JSON stamped with an id, the model and the cap', async () => {
    const ai = new FakeWorkersAi();
    const adapter = workersAiAdapter(ai);
    const res = await send(adapter, target(adapter), HELLO);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { response: string; usage: object; edgeway: Record<string, unknown> };
    expect(body.response).toBe('Workers AI echo: Hello there');
    expect(body.edgeway).toMatchObject({
      id: expect.stringMatching(/^wai-[0-9a-f]{32}$/),
      model: LLAMA,
      max_tokens: 32,
    });
    expect(ai.chatCalls).toEqual([{ model: LLAMA, inputs: HELLO, signal: expect.any(AbortSignal) }]);
  });

  it('relays a stream as SSE with the stamp event in the first chunk, unbuffered', async () => {
    const adapter = workersAiAdapter(new FakeWorkersAi());
    const res = await send(adapter, target(adapter, LLAMA, true), { ...HELLO, stream: true });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(
      /^event: edgeway\ndata: \{"id":"wai-[0-9a-f]{32}".*\n\ndata: \{"response":"Workers"\}\n\n$/s,
    );
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read())
      rest += new TextDecoder().decode(r.value);
    expect(rest).toContain('"usage":{"prompt_tokens"');
    expect(rest.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('sends a whole answer to a stream request as one event when the model does not stream', async () => {
    const whole = { run: async () => ({ response: 'all at once' }) };
    const adapter = workersAiAdapter(whole);
    const text = await (await send(adapter, target(adapter, LLAMA, true), HELLO)).text();
    expect(text).toMatch(/^event: edgeway\n.*\n\ndata: \{"response":"all at once"\}\n\ndata: \[DONE\]\n\n$/s);
  });

  it('turns binding errors into statuses by their code, in Cloudflare’s envelope', async () => {
    const cases: [string, number, number | undefined][] = [
      ['5007: No such model @cf/none or task', 400, 5007],
      [
        "5006: Error: oneOf at '/' not met, 0 matches: required properties at '/' not met: messages",
        400,
        5006,
      ],
      ['InferenceUpstreamError: 3040: Capacity temporarily exceeded, please try again.', 429, 3040],
      [
        '5021: The estimated number of input and maximum output tokens (9000) exceeded this model context window limit (7968).',
        400,
        5021,
      ],
      ['3007: Request timeout', 504, 3007],
      ['Network connection lost.', 502, undefined],
    ];
    for (const [message, status, code] of cases) {
      const res = bindingFailure(new Error(message));
      expect(res.status).toBe(status);
      const body = (await res.json()) as { success: boolean; errors: { code?: number; message: string }[] };
      expect(body.success).toBe(false);
      expect(body.errors[0]?.code).toBe(code);
      expect(body.errors[0]?.message).not.toMatch(/^\d{4}:/);
    }
  });

  it('answers the fake’s schema errors through send, not by throwing', async () => {
    const adapter = workersAiAdapter(new FakeWorkersAi());
    const res = await send(adapter, target(adapter), {
      messages: [{ role: 'user', content: 'x' }],
      temperature: 9,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("maximum at '/temperature' not met");
  });

  it('rejects when the signal aborts the call, and cancels the binding’s stream mid-way', async () => {
    const adapter = workersAiAdapter(new FakeWorkersAi());
    const before = new AbortController();
    before.abort(new DOMException('gone', 'AbortError'));
    const slow = {
      run: (_m: string, _i: unknown, o?: { signal?: AbortSignal }) => Promise.reject(o?.signal?.reason),
    };
    await expect(send(workersAiAdapter(slow), target(adapter), HELLO, before.signal)).rejects.toThrow('gone');

    const during = new AbortController();
    const res = await send(adapter, target(adapter, LLAMA, true), { ...HELLO, stream: true }, during.signal);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    during.abort(new Error('client left'));
    await expect(reader.read()).rejects.toThrow();
  });

  it('answers embeddings as the binding gives them, stamped', async () => {
    const adapter = workersAiAdapter(new FakeWorkersAi());
    const t = target(adapter, '@cf/baai/bge-small-en-v1.5', false, 'embeddings');
    const body = (await (await send(adapter, t, { text: ['abcd', 'efgh'] })).json()) as {
      data: number[][];
      edgeway: { model: string };
    };
    expect(body.data).toHaveLength(2);
    expect(body.data[0]).toHaveLength(384);
    expect(body.edgeway.model).toBe('@cf/baai/bge-small-en-v1.5');
  });

  it('serves a listed model only on its own kind of endpoint; an unlisted one on any', () => {
    const adapter = workersAiAdapter(new FakeWorkersAi());
    const prepare = (model: string, endpoint: 'chat' | 'messages' | 'embeddings') =>
      adapter.prepare({ endpoint, model, stream: false, passHeaders: [] });
    expect(prepare(LLAMA, 'embeddings')).toBeNull();
    expect(prepare('@cf/baai/bge-base-en-v1.5', 'chat')).toBeNull();
    expect(prepare(LLAMA, 'messages')).toMatchObject({ format: 'workers-ai', endpoint: 'messages' });
    expect(prepare('@cf/some/new-model', 'embeddings')).toMatchObject({ format: 'workers-ai' });
  });
});

describe('the Workers AI provider entry', () => {
  it('is listed but unconfigured without the AI binding (local dev), and configured with it', () => {
    const without = buildRegistry({ ...env, AI: undefined } as Bindings);
    expect(without.get('workers-ai')).toBe('unconfigured');
    expect(without.configured()).not.toContain('workers-ai');
    expect(without.entries().map((e) => e.id)).toContain('workers-ai');

    const withAi = buildRegistry({ ...env, AI: new FakeWorkersAi() } as unknown as Bindings);
    expect(withAi.configured()).toContain('workers-ai');
    expect(withAi.get('workers-ai')).toMatchObject({ id: 'workers-ai' });
  });

  it('lists its chat and embedding models, and takes no tenant keys', () => {
    const entry = workersAiEntry({ ...env, AI: new FakeWorkersAi() } as unknown as Bindings);
    expect(entry.models).toEqual(
      expect.arrayContaining([
        LLAMA,
        '@cf/meta/llama-3.3-70b-instruct-fp8-fast',
        '@cf/baai/bge-base-en-v1.5',
      ]),
    );
    expect(entry.acceptsTenantKeys).toBe(false);
    expect(entry.keyless).toBe(true);
  });
});
