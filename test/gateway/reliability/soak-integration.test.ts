/**
 * The soak: a few hundred requests of every kind, several at a time, through
 * the Worker's own fetch handler, its real log queue, consumer and D1 — odd
 * metadata (±1e309), a 200,000-character model id, payloads that escape badly,
 * streams, refusals. Every request answered must become exactly one stored
 * event, counted once in the rollups, and the reconciliation must balance.
 * The Worker is driven as in burst-integration.test.ts (fetch handler and
 * waitUntil directly; SELF.fetch slows down with every request), with a fresh
 * env object so this file's isolate batcher starts its count at zero.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { LOG_FIELD_MAX, TRUNCATED_MARK } from '../../../src/core/log-event';
import type { Bindings } from '../../../src/env';
import worker from '../../../src/index';
import type { Reconciliation } from '../../../src/logs/read/reconcile';
import { admin } from '../admin-helpers';
import { chatBody, inParallel, seedKey } from '../helpers';
import { clearLogs, logCount, usageRows } from '../log-fixtures';

const REQUESTS = 300;
const WIDTH = 12;
const HUGE_MODEL = `mock/echo${'x'.repeat(200_000)}`;

const soakEnv: Bindings = { ...env };

interface Call {
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

function callFor(i: number, key: string, payloadKey: string): Call {
  const auth = { authorization: `Bearer ${key}` };
  const chat = (body: unknown, headers: Record<string, string> = {}) => ({
    path: '/v1/chat/completions',
    body,
    headers: { ...auth, ...headers },
  });
  switch (i % 10) {
    case 0:
      return chat(chatBody(`metadata ${i}`), { 'cf-aig-metadata': '{"a":1e309}' });
    case 1:
      return chat(chatBody(`metadata ${i}`), { 'cf-aig-metadata': `{"n":-1e309,"s":"${'y'.repeat(3000)}"}` });
    case 2:
      return chat(chatBody(`huge model ${i}`, { model: HUGE_MODEL }));
    case 3:
      return chat(chatBody(`stream ${i}`, { stream: true, stream_options: { include_usage: true } }));
    case 4:
      return chat(chatBody(`no key ${i}`), { authorization: 'Bearer ew_not_a_key' });
    case 5:
      return {
        path: '/v1/chat/completions',
        // 40,000 control characters: 240 KB once JSON-escaped, so the payload must be cut to fit a message.
        body: chatBody(`${'\u0001'.repeat(40_000)} ${i}`),
        headers: { authorization: `Bearer ${payloadKey}` },
      };
    case 6:
      return {
        path: '/v1/embeddings',
        body: { model: 'mock/text-embedding-3-small', input: `e ${i}` },
        headers: auth,
      };
    default:
      return chat(chatBody(`plain ${i} ${'w '.repeat(i % 5)}`));
  }
}

async function send(call: Call): Promise<Response> {
  const ctx = createExecutionContext();
  const req = new Request(`http://gw.test${call.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...call.headers },
    body: JSON.stringify(call.body),
  });
  const res = await worker.fetch(req, soakEnv, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return new Response(text, res);
}

/**
 * Polls the admin reconciliation (bounded) until it has heard of `answered`
 * events: producers' counts arrive with their batches, so until the last batch
 * is consumed the reconciliation cannot know of it.
 */
async function reconciled(answered: number, timeoutMs: number): Promise<Reconciliation> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await admin('GET', '/logs/reconcile');
    expect(res.status).toBe(200);
    const r = res.json as Reconciliation;
    if ((r.sent >= answered && r.received >= r.sent) || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('log soak', () => {
  it('stores one event per request answered, rolls each up once, and the reconciliation balances', async () => {
    await clearLogs();
    await env.DB.exec('DELETE FROM log_batches');
    const [a, b, withPayload] = await Promise.all([
      seedKey({ tenantId: 'ten_soak_a' }),
      seedKey({ tenantId: 'ten_soak_b' }),
      seedKey({ tenantId: 'ten_soak_a', logPayload: true }),
    ]);
    const started = Date.now();
    const answers = await inParallel(REQUESTS, WIDTH, async (i) => {
      const res = await send(callFor(i, (i % 3 === 0 ? b : a).secret, withPayload.secret));
      return { status: res.status, id: res.headers.get('x-edgeway-request-id') };
    });
    const answered = answers.filter((x) => x.id !== null).length;
    expect(answered).toBe(REQUESTS);
    expect(answers.filter((x) => x.status >= 500)).toEqual([]);

    const r = await reconciled(answered, 30_000);
    const elapsed = Date.now() - started;
    console.log(JSON.stringify({ soak: { requests: REQUESTS, batches: r.batches, ms: elapsed } }));
    expect(r).toMatchObject({
      sent: answered,
      received: answered,
      stored: answered,
      dead_lettered: 0,
      fallback: 0,
      missing: 0,
      missing_batches: 0,
      gaps: [],
      balanced: true,
    });
    // Batched: several events share a queue message.
    expect(r.batches).toBeLessThan(answered);

    expect(await logCount()).toBe(answered);
    const rollups = await usageRows();
    expect(rollups.reduce((n, row) => n + row.requests, 0)).toBe(answered);
    const dead = await env.DB.prepare('SELECT count(*) AS n FROM dead_letters').first<{ n: number }>();
    expect(dead?.n).toBe(0);

    const ids = (i: number) => answers[i]!.id!;
    const row = (id: string) =>
      env.DB.prepare('SELECT model, metadata, payload_truncated, status FROM request_logs WHERE id = ?')
        .bind(id)
        .first<{
          model: string | null;
          metadata: string | null;
          payload_truncated: number;
          status: number;
        }>();
    expect(JSON.parse((await row(ids(0)))!.metadata!)).toEqual({ a: 'Infinity' });
    const odd = JSON.parse((await row(ids(1)))!.metadata!);
    expect(odd.n).toBe('-Infinity');
    expect(odd.s.endsWith(TRUNCATED_MARK)).toBe(true);
    const huge = (await row(ids(2)))!;
    expect(huge.model!.length).toBe(LOG_FIELD_MAX.model);
    expect(huge.model!.endsWith(TRUNCATED_MARK)).toBe(true);
    expect((await row(ids(4)))!.status).toBe(401);
    expect((await row(ids(5)))!.payload_truncated).toBe(1);
  }, 90_000);
});
