/** The dead-letter queue's consumer: last-chance writes one by one, then parking in dead_letters. */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearLogs, deliver, DLQ, logCount, logEvent, usageRows } from '../../log-fixtures';

beforeEach(async () => {
  await clearLogs();
  await env.DB.exec('DELETE FROM log_batches');
});

async function withTableAway<T>(table: string, run: () => Promise<T>): Promise<T> {
  await env.DB.exec(`ALTER TABLE ${table} RENAME TO ${table}_away`);
  try {
    return await run();
  } finally {
    await env.DB.exec(`ALTER TABLE ${table}_away RENAME TO ${table}`);
  }
}

describe('dead-letter consumer', () => {
  it('writes dead-lettered events that D1 now accepts, exactly once', async () => {
    const a = logEvent();
    const b = logEvent();
    await deliver(DLQ, [a]);
    const result = await deliver(DLQ, [a, b]);
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
    expect(await logCount()).toBe(2);
    expect(await usageRows()).toEqual([expect.objectContaining({ requests: 2 })]);
  });

  it('parks a message it still cannot write in dead_letters, with the error, and acks it', async () => {
    const event = logEvent();
    const result = await withTableAway('request_logs', () =>
      deliver(DLQ, [{ id: 'm-1', body: event, attempts: 1 }]),
    );
    expect(result.explicitAcks).toEqual(['m-1']);
    const row = await env.DB.prepare('SELECT * FROM dead_letters').first<{
      request_id: string;
      reason: string;
      body: string;
      queue: string;
    }>();
    expect(row).toMatchObject({
      request_id: event.requestId,
      queue: DLQ,
      reason: expect.stringMatching(/^write failed: .*request_logs/),
    });
    expect(JSON.parse(row!.body)).toEqual(event);
  });

  it('parks a batch it cannot write event by event, and records the batch as dead-lettered', async () => {
    const events = [logEvent(), logEvent()];
    const batch = { v: 2, isolate: 'iso-dlq', seq: 4, sent: 9, events };
    const result = await withTableAway('request_logs', () => deliver(DLQ, [{ id: 'm-b', body: batch }]));
    expect(result.explicitAcks).toEqual(['m-b']);
    const parked = await env.DB.prepare(
      'SELECT message_id, request_id FROM dead_letters ORDER BY message_id',
    ).all();
    expect(parked.results).toEqual([
      { message_id: 'm-b:0', request_id: events[0]!.requestId },
      { message_id: 'm-b:1', request_id: events[1]!.requestId },
    ]);
    const receipt = await env.DB.prepare('SELECT events, stored, dead, via FROM log_batches').first();
    expect(receipt).toEqual({ events: 2, stored: 0, dead: 2, via: 'dlq' });
  });

  it('parks malformed messages without retrying them', async () => {
    const result = await deliver(DLQ, [{ id: 'm-bad', body: { nope: true } }]);
    expect(result.explicitAcks).toEqual(['m-bad']);
    expect(
      await env.DB.prepare('SELECT message_id, reason FROM dead_letters')
        .all()
        .then((r) => r.results),
    ).toEqual([{ message_id: 'm-bad', reason: expect.stringMatching(/^malformed/) }]);
  });

  it('retries a message only when even parking it fails', async () => {
    const result = await withTableAway('request_logs', () =>
      withTableAway('dead_letters', () => deliver(DLQ, [{ id: 'm-2', body: logEvent(), attempts: 3 }])),
    );
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toEqual([expect.objectContaining({ msgId: 'm-2' })]);
  });
});
