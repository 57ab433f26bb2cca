/**
 * Stored responses over the pool's real R2 bucket and D1: the object written before `put` resolves and its
 * index row through the caller's waitUntil; reads, deletes and input items only by (tenant, id); expiry
 * (missing at once, swept by the cron in bounded batches, objects and rows); and, without the bucket, the
 * record in D1's body column, capped.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { StoredResponse } from '../../../src/core/stored-response';
import {
  D1_BODY_MAX_BYTES,
  ResponseTooLarge,
  responseObjectKey,
  StoredResponses,
} from '../../../src/storage/response-store';
import { sweepResponses } from '../../../src/storage/response-sweep';
import { getDeps } from '../../../src/deps';
import type { Bindings } from '../../../src/env';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const PAGE = { limit: 20, order: 'asc' as const, after: null };

let n = 0;
/** A fresh tenant and response id per call, so the tests share the runtime's D1 and R2 safely. */
function record(over: Partial<StoredResponse> = {}): StoredResponse {
  n += 1;
  const id = `resp_store${n}_${crypto.randomUUID().slice(0, 8)}`;
  return {
    v: 1,
    id,
    tenant_id: `ten_store_${crypto.randomUUID().slice(0, 8)}`,
    key_id: 'key_store',
    created_at: NOW,
    expires_at: NOW + 30 * DAY,
    model: 'mock/echo',
    context: [],
    input: [
      { id: `msg_${n}_i0`, type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one' }] },
      { id: `msg_${n}_i1`, type: 'message', role: 'user', content: [{ type: 'input_text', text: 'two' }] },
    ],
    response: {
      id,
      object: 'response',
      output: [{ id: 'msg_out', type: 'message', role: 'assistant', content: [] }],
    },
    ...over,
  };
}

/** Collects what the store hands to waitUntil, so a test can wait for the index row. */
function later() {
  const work: Promise<unknown>[] = [];
  return { waitUntil: (p: Promise<unknown>) => void work.push(p), settled: () => Promise.all(work) };
}

const indexRow = (r: StoredResponse) =>
  env.DB.prepare('SELECT * FROM stored_responses WHERE tenant_id = ? AND id = ?')
    .bind(r.tenant_id, r.id)
    .first<{ key_id: string; model: string; expires_at: number; bytes: number; body: string | null }>();

describe('with the RESPONSES bucket', () => {
  const store = new StoredResponses(env.DB, env.RESPONSES);

  it('writes the object before put resolves and the index row through waitUntil', async () => {
    const r = record();
    const { waitUntil, settled } = later();
    await store.put(r, waitUntil);
    const object = await env.RESPONSES.get(responseObjectKey(r.tenant_id, r.id));
    expect(object?.customMetadata?.expiresAt).toBe(String(r.expires_at));
    expect(JSON.parse((await object?.text()) ?? 'null')).toEqual(r);
    await settled();
    const row = await indexRow(r);
    expect(row).toMatchObject({
      key_id: 'key_store',
      model: 'mock/echo',
      expires_at: r.expires_at,
      body: null,
    });
    expect(row?.bytes).toBe(new TextEncoder().encode(JSON.stringify(r)).byteLength);
  });

  it("finds a record only under its own tenant, and never another tenant's", async () => {
    const r = record();
    await store.put(r, later().waitUntil);
    expect(await store.get(r.tenant_id, r.id, NOW)).toEqual(r);
    expect(await store.get('ten_other', r.id, NOW)).toBeNull();
    expect(await store.inputItems('ten_other', r.id, NOW, PAGE)).toBeNull();
    expect(await store.delete('ten_other', r.id, NOW)).toBe(false);
    expect(await store.get(r.tenant_id, r.id, NOW)).toEqual(r);
  });

  it('is missing once expired, though not yet swept', async () => {
    const r = record({ expires_at: NOW + DAY });
    await store.put(r, later().waitUntil);
    expect(await store.get(r.tenant_id, r.id, NOW + DAY - 1)).not.toBeNull();
    expect(await store.get(r.tenant_id, r.id, NOW + DAY)).toBeNull();
    expect(await store.inputItems(r.tenant_id, r.id, NOW + DAY, PAGE)).toBeNull();
    expect(await store.delete(r.tenant_id, r.id, NOW + DAY)).toBe(false);
  });

  it('deletes the object and its index row', async () => {
    const r = record();
    const { waitUntil, settled } = later();
    await store.put(r, waitUntil);
    await settled();
    expect(await store.delete(r.tenant_id, r.id, NOW)).toBe(true);
    expect(await env.RESPONSES.head(responseObjectKey(r.tenant_id, r.id))).toBeNull();
    expect(await indexRow(r)).toBeNull();
    expect(await store.get(r.tenant_id, r.id, NOW)).toBeNull();
    expect(await store.delete(r.tenant_id, r.id, NOW)).toBe(false);
  });

  it("pages the record's own input items", async () => {
    const r = record();
    await store.put(r, later().waitUntil);
    const page = await store.inputItems(r.tenant_id, r.id, NOW, { limit: 1, order: 'desc', after: null });
    expect(page).toMatchObject({ first_id: r.input[1]?.id, last_id: r.input[1]?.id, has_more: true });
  });

  it('answers an id that is not a response id as missing, without looking', async () => {
    expect(await store.get('ten_x', '../ten_y/resp_1', NOW)).toBeNull();
    expect(await store.delete('ten_x', 'a/b', NOW)).toBe(false);
  });

  it('still finds a record kept in D1 before the bucket was bound', async () => {
    const r = record();
    await new StoredResponses(env.DB, null).put(r, later().waitUntil);
    expect(await store.get(r.tenant_id, r.id, NOW)).toEqual(r);
    expect(await store.delete(r.tenant_id, r.id, NOW)).toBe(true);
    expect(await indexRow(r)).toBeNull();
  });

  it('sweeps expired records, objects and rows, in bounded batches, and keeps live ones', async () => {
    // Long expired (2001), so no other test's records are older: the batches take these first.
    const old = Array.from({ length: 5 }, (_, i) =>
      record({ created_at: Date.UTC(2001, 0, 1), expires_at: Date.UTC(2001, 0, 2) + i }),
    );
    const live = record({ expires_at: NOW + DAY });
    const { waitUntil, settled } = later();
    for (const r of [...old, live]) await store.put(r, waitUntil);
    await settled();
    expect(await store.sweep(Date.UTC(2001, 0, 3), 2)).toBe(2);
    for (const r of old.slice(0, 2)) {
      expect(await indexRow(r)).toBeNull();
      expect(await env.RESPONSES.head(responseObjectKey(r.tenant_id, r.id))).toBeNull();
    }
    expect(await indexRow(old[2]!)).not.toBeNull();
    await sweepResponses(store, NOW, 2);
    for (const r of old) {
      expect(await indexRow(r)).toBeNull();
      expect(await env.RESPONSES.head(responseObjectKey(r.tenant_id, r.id))).toBeNull();
    }
    expect(await store.get(live.tenant_id, live.id, NOW)).toEqual(live);
    expect(await indexRow(live)).not.toBeNull();
  });
});

describe('without the bucket', () => {
  const store = new StoredResponses(env.DB, null);

  it('is what the deployment gets when RESPONSES is not bound', async () => {
    const r = record();
    const unbound = getDeps({ ...env, RESPONSES: undefined } as unknown as Bindings).responses;
    await unbound.put(r, later().waitUntil);
    expect(JSON.parse((await indexRow(r))?.body ?? 'null')).toEqual(r);
    const bound = getDeps({ ...env } as Bindings).responses;
    const s = record();
    const { waitUntil, settled } = later();
    await bound.put(s, waitUntil);
    await settled();
    expect((await indexRow(s))?.body).toBeNull();
    expect(await env.RESPONSES.head(responseObjectKey(s.tenant_id, s.id))).not.toBeNull();
  });

  it('keeps the record in the D1 row, written before put resolves', async () => {
    const r = record();
    await store.put(r, () => expect.unreachable('no work is left for later without the bucket'));
    expect(JSON.parse((await indexRow(r))?.body ?? 'null')).toEqual(r);
    expect(await env.RESPONSES.head(responseObjectKey(r.tenant_id, r.id))).toBeNull();
    expect(await store.get(r.tenant_id, r.id, NOW)).toEqual(r);
    expect(await store.get('ten_other', r.id, NOW)).toBeNull();
    expect(await store.get(r.tenant_id, r.id, r.expires_at)).toBeNull();
    expect(await store.inputItems(r.tenant_id, r.id, NOW, PAGE)).toMatchObject({ data: r.input });
  });

  it('refuses a record above the cap and keeps nothing of it', async () => {
    const r = record({ response: { id: 'x', output: [], text: 'x'.repeat(D1_BODY_MAX_BYTES) } });
    await expect(store.put(r, later().waitUntil)).rejects.toBeInstanceOf(ResponseTooLarge);
    expect(await indexRow(r)).toBeNull();
  });

  it('deletes the row, and sweeps expired rows', async () => {
    const gone = record();
    const old = record({ expires_at: Date.UTC(2001, 0, 1) });
    await store.put(gone, later().waitUntil);
    await store.put(old, later().waitUntil);
    expect(await store.delete(gone.tenant_id, gone.id, NOW)).toBe(true);
    expect(await indexRow(gone)).toBeNull();
    await sweepResponses(store, NOW);
    expect(await indexRow(old)).toBeNull();
  });
});
