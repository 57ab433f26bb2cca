/** A request's route and upstream attempts: queue → D1 → admin API, old messages, unreadable cells. */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LogEvent, LogTry } from '../../../src/core/log-event';
import { toRow } from '../../../src/logs/rows';
import { LogStore } from '../../../src/logs/store';
import { admin } from '../admin-helpers';
import { clearLogs, deliver, LOG_QUEUE, logEvent, waitForLogs } from '../log-fixtures';

const TRIES: LogTry[] = [
  { target: 'openai/gpt-4o', status: 503, ttfbMs: 41.5, error: 'server_error' },
  { target: 'openai/gpt-4o', status: 0, ttfbMs: 2000, error: 'upstream_timeout' },
  { target: 'anthropic/claude-sonnet-4', status: 200, ttfbMs: 310, error: null },
];

type Detail = {
  id: string;
  route: string | null;
  model: string | null;
  tries: { target: string; status: number; ttfb_ms: number; error: string | null }[];
};

async function detail(id: string): Promise<Detail> {
  const res = await admin('GET', `/logs/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.json as Detail;
}

/** What a producer from before issue 14 queued: no route, no tries. */
function oldEvent(overrides: Partial<LogEvent> = {}): Record<string, unknown> {
  const { route: _route, tries: _tries, ...rest } = logEvent(overrides);
  return rest;
}

beforeEach(async () => {
  await clearLogs();
});

describe('log tries', () => {
  it('carries the route and every attempt, in order, from a queue batch to the admin detail', async () => {
    const routed = logEvent({ model: 'smart', route: 'smart', attempts: 3, tries: TRIES });
    const batch = { v: 2, isolate: 'iso-tries', seq: 1, sent: 2, events: [routed, logEvent()] };
    expect((await deliver(LOG_QUEUE, [{ body: batch }])).ackAll).toBe(true);

    const [row] = await waitForLogs([routed.requestId]);
    expect(row?.route).toBe('smart');
    expect(JSON.parse(row?.tries ?? 'null')).toHaveLength(3);

    const log = await detail(routed.requestId);
    expect(log.route).toBe('smart');
    expect(log.tries).toEqual([
      { target: 'openai/gpt-4o', status: 503, ttfb_ms: 41.5, error: 'server_error' },
      { target: 'openai/gpt-4o', status: 0, ttfb_ms: 2000, error: 'upstream_timeout' },
      { target: 'anthropic/claude-sonnet-4', status: 200, ttfb_ms: 310, error: null },
    ]);
    const list = (await admin('GET', '/logs')).json as { data: Detail[] };
    expect(list.data.find((e) => e.id === routed.requestId)).toMatchObject({
      route: 'smart',
      tries: log.tries,
    });
  });

  it('stores a batch with tries in one insert, never a statement per event', async () => {
    const rows = Array.from({ length: 40 }, () => toRow(logEvent({ route: 'smart', tries: TRIES })));
    let prepared = 0;
    const counting = {
      prepare: (sql: string) => {
        prepared++;
        return env.DB.prepare(sql);
      },
      batch: (statements: D1PreparedStatement[]) => env.DB.batch(statements),
    } as unknown as D1Database;
    expect(await new LogStore(counting).write(rows, [], Date.now())).toEqual({ inserted: 40 });
    // The insert, the nine rollups (daily, guardrails, end users, tags, hourly, per minute, totals, failed
    // lookups, MCP calls) and last-used: the same eleven as a batch without tries, whatever its size.
    expect(prepared).toBe(11);
  });

  it('still stores messages queued before routes existed, read back as route null and tries []', async () => {
    const single = oldEvent();
    const inBatch = oldEvent();
    const batch = { v: 2, isolate: 'iso-old', seq: 1, sent: 1, events: [inBatch] };
    const result = await deliver(LOG_QUEUE, [{ body: single }, { body: batch }]);
    expect(result.ackAll).toBe(true);

    const rows = await waitForLogs([single.requestId as string, inBatch.requestId as string]);
    expect(rows.map((r) => [r.route, r.tries])).toEqual([
      [null, null],
      [null, null],
    ]);
    for (const id of [single.requestId, inBatch.requestId]) {
      expect(await detail(id as string)).toMatchObject({ route: null, tries: [] });
    }
  });

  it('reads a tries cell that is not a list of attempts as [], the row still returned', async () => {
    const events = [logEvent({ tries: TRIES }), logEvent({ tries: TRIES }), logEvent({ tries: TRIES })];
    await deliver(LOG_QUEUE, events);
    const corrupt = ['{"not":"a list"}', '[{"target":5,"status":"x"}]', '"text"'];
    await env.DB.batch(
      events.map((e, i) =>
        env.DB.prepare('UPDATE request_logs SET tries = ? WHERE id = ?').bind(corrupt[i], e.requestId),
      ),
    );
    for (const e of events) expect((await detail(e.requestId)).tries).toEqual([]);
    const list = await admin('GET', '/logs');
    expect(list.status).toBe(200);
    expect((list.json as { data: Detail[] }).data.map((d) => d.tries)).toEqual([[], [], []]);
  });
});
