/**
 * Retention: the daily cron deletes raw logs older than LOG_RETENTION_DAYS and keeps the rollups. Without
 * the archive that is D1's rows; with it, R2's days, while D1 keeps only the LOG_INDEX_DAYS index.
 */
import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import worker from '../../../src/index';
import { retentionDays } from '../../../src/logs/retention';
import type { Bindings } from '../../../src/env';
import {
  archiveKeys,
  bindings,
  bindingsWithoutArchive,
  clearLogs,
  deliver,
  logEvent,
  LOG_QUEUE,
  usageRows,
} from '../log-fixtures';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 15, 3, 17);

beforeEach(clearLogs);

async function runCron(scheduledTime: number, over: Bindings = bindingsWithoutArchive) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime, cron: '17 3 * * *' }), over);
  await waitOnExecutionContext(ctx);
}

describe('log retention without the archive', () => {
  it('deletes raw logs older than the retention window, keeps newer ones and every rollup', async () => {
    const days = Number(env.LOG_RETENTION_DAYS);
    const old = [logEvent({ time: NOW - (days + 10) * DAY }), logEvent({ time: NOW - days * DAY - 1 })];
    const kept = [
      logEvent({ time: NOW - days * DAY + 1 }),
      logEvent({ time: NOW - DAY }),
      logEvent({ time: NOW }),
    ];
    await deliver(LOG_QUEUE, [...old, ...kept], bindingsWithoutArchive);
    const before = await usageRows();

    await runCron(NOW);

    const { results } = await env.DB.prepare('SELECT id FROM request_logs ORDER BY time').all<{
      id: string;
    }>();
    expect(results.map((r) => r.id)).toEqual(kept.map((e) => e.requestId));
    expect(await usageRows()).toEqual(before);
    expect(before.reduce((n, r) => n + r.requests, 0)).toBe(5);
  });

  it('deletes in chunks until nothing old is left', async () => {
    const events = Array.from({ length: 12_000 }, (_, i) => logEvent({ time: NOW - 400 * DAY + i }));
    for (let i = 0; i < events.length; i += 100)
      await deliver(LOG_QUEUE, events.slice(i, i + 100), bindingsWithoutArchive);
    await runCron(NOW);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM request_logs').first('n')).toBe(0);
    expect((await usageRows()).reduce((n, r) => n + r.requests, 0)).toBe(12_000);
  }, 30_000);

  it('reads LOG_RETENTION_DAYS, falling back to 30 days for a missing or invalid value', () => {
    expect([
      retentionDays('7'),
      retentionDays(undefined),
      retentionDays('0'),
      retentionDays('abc'),
      retentionDays('1.5'),
    ]).toEqual([7, 30, 30, 30, 30]);
  });
});

describe('log retention with the archive', () => {
  it('deletes exactly the expired days from R2 and keeps only the recent index in D1', async () => {
    const days = Number(env.LOG_RETENTION_DAYS);
    const indexDays = Number(env.LOG_INDEX_DAYS);
    const at = (offsetMs: number, tenantId: string) => logEvent({ time: NOW - offsetMs, tenantId });
    const expired = [at((days + 3) * DAY, 'ten_r1'), at(days * DAY + 4 * 3_600_000, 'ten_r2')];
    const archivedOnly = [at((days - 1) * DAY, 'ten_r1'), at((indexDays + 1) * DAY, 'ten_r2')];
    const indexed = [at(DAY, 'ten_r1'), at(0, 'ten_r2')];
    await deliver(LOG_QUEUE, [...expired, ...archivedOnly, ...indexed]);
    const keysBefore = await archiveKeys();
    expect(keysBefore).toHaveLength(6);

    await runCron(NOW, bindings);

    const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
    const cutoff = dayOf(NOW - days * DAY);
    const kept = await archiveKeys();
    expect(kept).toEqual(keysBefore.filter((k) => (/date=([\d-]+)\//.exec(k)?.[1] ?? '') >= cutoff));
    expect(kept).toHaveLength(4);
    const { results } = await env.DB.prepare('SELECT id FROM request_logs ORDER BY time').all<{
      id: string;
    }>();
    expect(results.map((r) => r.id)).toEqual(indexed.map((e) => e.requestId));
    expect((await usageRows()).reduce((n, r) => n + r.requests, 0)).toBe(6);
  });
});
