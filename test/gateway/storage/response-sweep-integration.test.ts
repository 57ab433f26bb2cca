/**
 * The daily cron, through the Worker's own scheduled handler: stored responses expired at the scheduled time
 * leave R2 and D1; live ones stay. (The scheduled time is in 2001, so the log retention that runs beside it
 * finds nothing of the other test files' logs to delete.)
 */
import { createScheduledController } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../../src/index';
import type { StoredResponse } from '../../../src/core/stored-response';
import { responseObjectKey, StoredResponses } from '../../../src/storage/response-store';
import { bindings } from '../log-fixtures';

const T = Date.UTC(2001, 0, 10, 3, 17);

function record(expiresAt: number): StoredResponse {
  const id = `resp_cron_${crypto.randomUUID().replaceAll('-', '')}`;
  return {
    v: 1,
    id,
    tenant_id: 'ten_cron',
    key_id: 'key_cron',
    created_at: expiresAt - 86_400_000,
    expires_at: expiresAt,
    model: 'mock/echo',
    context: [],
    input: [],
    response: { id, output: [] },
  };
}

describe('the daily cron', () => {
  it('deletes the stored responses expired at its time, objects and index rows, and keeps the rest', async () => {
    const store = new StoredResponses(bindings.DB, bindings.RESPONSES);
    const work: Promise<unknown>[] = [];
    const expired = record(T - 1);
    const live = record(T + 86_400_000);
    for (const r of [expired, live]) await store.put(r, (p) => void work.push(p));
    await Promise.all(work);
    await worker.scheduled(createScheduledController({ scheduledTime: T, cron: '17 3 * * *' }), bindings);
    const row = (r: StoredResponse) =>
      bindings.DB.prepare('SELECT id FROM stored_responses WHERE tenant_id = ? AND id = ?')
        .bind(r.tenant_id, r.id)
        .first();
    expect(await row(expired)).toBeNull();
    expect(await bindings.RESPONSES.head(responseObjectKey(expired.tenant_id, expired.id))).toBeNull();
    expect(await row(live)).not.toBeNull();
    expect(await store.get(live.tenant_id, live.id, T)).toEqual(live);
  });
});
