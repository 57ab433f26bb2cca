/** Retention: the daily cron deletes raw logs older than LOG_RETENTION_DAYS and keeps the rollups. */
import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import worker from '../../../src/index';
import { retentionDays } from '../../../src/logs/retention';
import { bindings, clearLogs, deliver, logEvent, LOG_QUEUE, usageRows } from '../log-fixtures';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 15, 3, 17);

beforeEach(clearLogs);

async function runCron(scheduledTime: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime, cron: '17 3 * * *' }), bindings);
  await waitOnExecutionContext(ctx);
}

describe('log retention', () => {
  it('deletes raw logs older than the retention window, keeps newer ones and every rollup', async () => {
    const days = Number(env.LOG_RETENTION_DAYS);
    const old = [logEvent({ time: NOW - (days + 10) * DAY }), logEvent({ time: NOW - days * DAY - 1 })];
    const kept = [
      logEvent({ time: NOW - days * DAY + 1 }),
      logEvent({ time: NOW - DAY }),
      logEvent({ time: NOW }),
    ];
    await deliver(LOG_QUEUE, [...old, ...kept]);
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
    for (let i = 0; i < events.length; i += 100) await deliver(LOG_QUEUE, events.slice(i, i + 100));
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
