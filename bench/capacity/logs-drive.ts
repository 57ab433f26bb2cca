/**
 * The log half of the capacity driver: prepares queue batches (shape.ts) in
 * isolate memory, then hands them one after another to the real consumer
 * (src/logs/consume/consumer.ts consumeLogs → LogStore) as MessageBatch-shaped objects,
 * as one consumer invocation loop would, against a real D1 database and, with
 * the archive, the real R2 bucket. Preparing apart from consuming keeps the
 * generator's work out of what the harness times.
 */
import { consumeLogs } from '../../src/logs/consume/consumer';
import type { LogBatch } from '../../src/core/log-batch';
import { LogStore } from '../../src/logs/store';
import { countedD1, countedR2, newWriteTally } from './counted';
import { type Shape, queueBodies, seeded } from './shape';

export interface LogEnv {
  readonly DB_WHOLE: D1Database;
  readonly DB_INDEX: D1Database;
  readonly DB_ROLLUPS: D1Database;
  readonly LOG_ARCHIVE: R2Bucket;
}

/** The three log modes: no archive (whole rows), archive with the recent index, archive with rollups only. */
export type LogMode = 'whole' | 'index' | 'rollups';

const modeOf = (url: URL): LogMode => {
  const m = url.searchParams.get('mode');
  return m === 'index' || m === 'rollups' ? m : 'whole';
};

const databaseOf = (mode: LogMode, env: LogEnv): D1Database =>
  mode === 'whole' ? env.DB_WHOLE : mode === 'index' ? env.DB_INDEX : env.DB_ROLLUPS;

let prepared: LogBatch[][] = [];
const seq = { next: 1 };

const num = (url: URL, name: string, fallback: number) => Number(url.searchParams.get(name) ?? fallback);

export function shapeOf(url: URL): Shape {
  return {
    messages: Math.min(100, num(url, 'messages', 100)),
    events: [num(url, 'lo', 20), num(url, 'hi', 50)],
    tenants: num(url, 'tenants', 4),
    payloadShare: num(url, 'payloadShare', 0.2),
    payloadChars: [num(url, 'requestChars', 2000), num(url, 'responseChars', 1000)],
  };
}

export function prepare(url: URL): Response {
  const shape = shapeOf(url);
  const rand = seeded(num(url, 'seed', 1));
  const now = Date.now();
  prepared = Array.from({ length: num(url, 'batches', 1) }, () => queueBodies(rand, shape, now, seq));
  const events = prepared.flat().reduce((n, b) => n + b.events.length, 0);
  const withPayload = prepared.flat().reduce((n, b) => n + b.events.filter((e) => e.payload).length, 0);
  // What the queue would carry: each message's body as JSON (Queues bill per 64 KB of a message).
  const messageBytes = prepared.flat().reduce((n, b) => n + JSON.stringify(b).length, 0);
  return Response.json({
    batches: prepared.length,
    messages: prepared.flat().length,
    events,
    withPayload,
    messageBytes,
  });
}

function messageBatch(
  bodies: LogBatch[],
  outcome: { acked: number; retried: number },
): MessageBatch<unknown> {
  const messages = bodies.map((body, i) => ({
    id: `m${body.seq}-${i}`,
    timestamp: new Date(),
    body,
    attempts: 1,
    ack: () => outcome.acked++,
    retry: () => outcome.retried++,
  }));
  return {
    queue: 'edgeway-logs',
    messages,
    metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } },
    ackAll: () => {
      outcome.acked += messages.length;
    },
    retryAll: () => {
      outcome.retried += messages.length;
    },
  };
}

/**
 * Consumes every prepared batch in turn: `mode=whole` writes whole rows to D1, `index` R2 objects and the
 * slim D1 index, `rollups` R2 objects and, in D1, only the rollups and one log_ingest row per object.
 */
export async function consume(url: URL, env: LogEnv): Promise<Response> {
  const mode = modeOf(url);
  const tally = newWriteTally();
  const db = countedD1(databaseOf(mode, env), tally);
  const bucket = mode === 'whole' ? null : countedR2(env.LOG_ARCHIVE, tally);
  const store = new LogStore(db, bucket, { index: mode !== 'rollups' });
  const outcome = { acked: 0, retried: 0 };
  let events = 0;
  for (const bodies of prepared) {
    events += bodies.reduce((n, b) => n + b.events.length, 0);
    await consumeLogs(messageBatch(bodies, outcome), store, Date.now());
  }
  const batches = prepared.length;
  prepared = [];
  return Response.json({ mode, batches, events, ...outcome, tally });
}

/** Rows of the log tables and the database's size, for the growth figures. */
export async function tables(url: URL, env: LogEnv): Promise<Response> {
  const db = databaseOf(modeOf(url), env);
  const count = await db
    .prepare(
      `SELECT (SELECT count(*) FROM request_logs) AS n, (SELECT count(*) FROM log_ingest) AS ingest,
        (SELECT count(*) FROM log_batches) AS receipts`,
    )
    .first<{ n: number; ingest: number; receipts: number }>();
  const size = await db.prepare('SELECT 1').run();
  return Response.json({
    rows: count?.n ?? 0,
    ingestRows: count?.ingest ?? 0,
    receiptRows: count?.receipts ?? 0,
    sizeBytes: (size.meta as { size_after?: number }).size_after ?? null,
  });
}
