/**
 * The log tables in D1 (schema: migrations/0003_logs.sql, changed by 0005, 0007, 0010, 0011, 0020 and 0022).
 *
 * Exactly-once rollups over at-least-once delivery: a write is one D1 batch
 * (one transaction) that
 *   1. inserts the rows with INSERT OR IGNORE on the request id, stamping each
 *      new row with this write's random `ingest_batch`;
 *   2. adds to the usage rollups (src/logs/rollups.ts: usage_daily, usage_end_users_daily,
 *      usage_tags_daily, usage_hourly, usage_minutely, usage_totals, lookup_failures_daily,
 *      and usage_mcp_daily for MCP calls) and guardrail_daily only the rows of this write's ids that carry this
 *      write's stamp, i.e. the rows step 1 actually inserted. A redelivered
 *      message (or the same id twice in one batch) is ignored by step 1 and so
 *      never reaches step 2; a failed write commits nothing, and its retry
 *      comes with a new stamp.
 * Rows travel as one JSON array parameter per statement (json_each), so a
 * batch of 100 events is a handful of statements, well inside D1's per-query
 * parameter and per-invocation query limits; arrays are split at ~512 KB to
 * stay under D1's 1 MB limit on a string, BLOB or row when payloads are logged.
 * Each row is a positional array in its columns' order (`value ->> i`), not an
 * object read by name: SQLite re-reads the row's JSON text for every column it
 * extracts, and positions made the write about a third cheaper (bench/README.md).
 * The same transaction records each batch's receipt in log_batches (INSERT OR
 * IGNORE on isolate and seq, so a redelivery or a queue copy of a batch also
 * written directly counts once): the reconciliation's raw data.
 */
import { writeArchive } from './archive/writer';
import {
  endUserRollup,
  hourlyRollup,
  lookupFailureRollup,
  mcpRollup,
  minutelyRollup,
  tagRollup,
  totalsRollup,
  usageRollup,
} from './rollups';
import { LOG_COLUMNS, type LogRow } from './rows';

export interface DeadLetter {
  message_id: string;
  queue: string;
  request_id: string | null;
  reason: string;
  body: string;
  attempts: number;
}

/** What arrived of one producer batch (src/core/log-batch.ts), and by which path. */
export interface Receipt {
  isolate: string;
  seq: number;
  /** Events the isolate had sent up to and including this batch. */
  sent: number;
  /** Events in this batch. */
  events: number;
  /** Of them, written to request_logs (new or already there). */
  stored: number;
  /** Of them, parked in dead_letters. */
  dead: number;
  via: 'queue' | 'dlq' | 'direct';
}

const CHUNK_BYTES = 512 * 1024;

const INSERT_LOGS = `INSERT OR IGNORE INTO request_logs (${LOG_COLUMNS.join(', ')}, ingest_batch, ingested_at)
  SELECT ${LOG_COLUMNS.map((_, i) => `value ->> ${i}`).join(', ')}, ?2, ?3 FROM json_each(?1)`;

/** Rows of this write (ids in ?1) that this write inserted into the index (stamp ?2). */
const INDEXED_ROWS = `FROM request_logs WHERE id IN (SELECT value FROM json_each(?1)) AND ingest_batch = ?2`;

/** What the rollups read of a row, when there is no index: the rows travel as JSON in ?1. */
const ROLLUP_COLUMNS = [
  'id',
  'time',
  'day',
  'tenant_id',
  'key_id',
  'model',
  'status',
  'error_code',
  'cache',
  'input_tokens',
  'output_tokens',
  'cached_tokens',
  'cost_usd',
  'saved_usd',
  'guardrails',
  'archive_key',
  'end_user',
  'tags',
  'endpoint',
  'provider',
  'latency_ms',
  'mcp',
  'error_source',
  'ttft_ms',
  'attempts',
  'route',
] as const;

/** Rows of this write (JSON in ?1) whose archive object this write recorded first (stamp ?2). */
const FRESH_ROWS = `FROM (SELECT ${ROLLUP_COLUMNS.map((c, i) => `value ->> ${i} AS ${c}`).join(', ')}
    FROM json_each(?1))
  WHERE archive_key IN (SELECT key FROM log_ingest WHERE stamp = ?2)`;

const RECORD_OBJECTS = `INSERT OR IGNORE INTO log_ingest (key, stamp, at)
  SELECT DISTINCT value ->> ${ROLLUP_COLUMNS.indexOf('archive_key')}, ?2, ?3 FROM json_each(?1)`;

const COUNT_FRESH = `SELECT count(*) AS n ${FRESH_ROWS}`;

/**
 * Per guardrail and day: requests it fired on, requests it blocked, values it redacted (migration 0011).
 * A verdict with count 0 (a classifier that could not judge) fires nothing.
 */
const guardrailRollup = (
  rows: string,
) => `INSERT INTO guardrail_daily (tenant_id, day, key_id, guardrail, fired, blocked, redacted)
  SELECT coalesce(r.tenant_id, ''), r.day, coalesce(r.key_id, ''), json_extract(g.value, '$.guardrail'),
    count(DISTINCT r.id),
    count(DISTINCT CASE WHEN json_extract(g.value, '$.action') = 'block' THEN r.id END),
    sum(CASE WHEN json_extract(g.value, '$.action') = 'redact' THEN json_extract(g.value, '$.count') ELSE 0 END)
  FROM (SELECT id, tenant_id, key_id, day, guardrails ${rows} AND guardrails IS NOT NULL) AS r,
    json_each(r.guardrails) AS g
  WHERE json_extract(g.value, '$.count') > 0
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (tenant_id, day, key_id, guardrail) DO UPDATE SET
    fired = fired + excluded.fired, blocked = blocked + excluded.blocked, redacted = redacted + excluded.redacted`;

/** Off the hot path, as migration 0002 intends: a key's last use comes from its logs. */
const lastUsed = (rows: string) => `UPDATE api_keys SET last_used_at = u.last
  FROM (SELECT key_id, max(time) AS last ${rows} AND key_id IS NOT NULL GROUP BY key_id) AS u
  WHERE api_keys.id = u.key_id AND (api_keys.last_used_at IS NULL OR api_keys.last_used_at < u.last)`;

const INSERT_DEAD = `INSERT OR IGNORE INTO dead_letters (message_id, queue, request_id, reason, body, attempts, received_at)
  SELECT json_extract(value, '$.message_id'), json_extract(value, '$.queue'), json_extract(value, '$.request_id'),
    json_extract(value, '$.reason'), json_extract(value, '$.body'), json_extract(value, '$.attempts'), ?2
  FROM json_each(?1)`;

const INSERT_RECEIPTS = `INSERT OR IGNORE INTO log_batches (isolate, seq, sent, events, stored, dead, via, received_at)
  SELECT json_extract(value, '$.isolate'), json_extract(value, '$.seq'), json_extract(value, '$.sent'),
    json_extract(value, '$.events'), json_extract(value, '$.stored'), json_extract(value, '$.dead'),
    json_extract(value, '$.via'), ?2
  FROM json_each(?1)`;

export class LogStore {
  /**
   * `archive`: the LOG_ARCHIVE bucket; with it, rows go to R2 first and D1 keeps them as the recent index,
   * or, with `index: false` (LOG_INDEX_DAYS = 0), keeps no row at all: rollups only.
   */
  constructor(
    private readonly db: D1Database,
    private readonly archive: R2Bucket | null = null,
    private readonly options: { index: boolean } = { index: true },
  ) {}

  /**
   * The archive objects (when bound), then one D1 transaction; returns how many log rows were new.
   * Throws when R2 or D1 fails: D1 then committed nothing, and the objects written are overwritten
   * by the retry (their keys are fixed by the batch), so neither side ever holds a row twice.
   */
  async write(
    batchRows: readonly LogRow[],
    dead: readonly DeadLetter[],
    now: number,
    receipts: readonly Receipt[] = [],
  ): Promise<{ inserted: number }> {
    const rows = this.archive ? await this.archived(batchRows) : batchRows.map(unarchived);
    const stamp = crypto.randomUUID();
    const statements: D1PreparedStatement[] = [];
    const indexed = !this.archive || this.options.index;
    if (indexed) {
      for (const chunk of chunks(rows.map(logTuple)))
        statements.push(this.db.prepare(INSERT_LOGS).bind(chunk, stamp, now));
    }
    const counts = statements.length;
    if (rows.length > 0 && indexed) {
      const ids = JSON.stringify(rows.map((r) => r.id));
      statements.push(
        ...this.rollups(INDEXED_ROWS, ids, stamp),
        this.db.prepare(guardrailRollup(INDEXED_ROWS)).bind(ids, stamp),
        this.db.prepare(lastUsed(INDEXED_ROWS)).bind(ids, stamp),
      );
    }
    const fresh: number[] = [];
    if (rows.length > 0 && !indexed) {
      for (const chunk of chunks(rows.map(rollupTuple))) {
        statements.push(
          this.db.prepare(RECORD_OBJECTS).bind(chunk, stamp, now),
          ...this.rollups(FRESH_ROWS, chunk, stamp),
          this.db.prepare(guardrailRollup(FRESH_ROWS)).bind(chunk, stamp),
          this.db.prepare(lastUsed(FRESH_ROWS)).bind(chunk, stamp),
        );
        fresh.push(statements.length);
        statements.push(this.db.prepare(COUNT_FRESH).bind(chunk, stamp));
      }
    }
    for (const chunk of chunks(dead)) statements.push(this.db.prepare(INSERT_DEAD).bind(chunk, now));
    for (const chunk of chunks(receipts)) statements.push(this.db.prepare(INSERT_RECEIPTS).bind(chunk, now));
    if (statements.length === 0) return { inserted: 0 };
    const results = await this.db.batch<{ n?: number }>(statements);
    if (!indexed) return { inserted: fresh.reduce((n, i) => n + (results[i]?.results[0]?.n ?? 0), 0) };
    return { inserted: results.slice(0, counts).reduce((n, r) => n + (r.meta.changes ?? 0), 0) };
  }

  /**
   * The usage rollups of the rows `rows` selects (usage_daily, per end user, per tag; the analytics buckets
   * per hour and minute, the cumulative totals and the failed lookups; MCP calls per tool):
   * one transaction with the insert.
   */
  private rollups(rows: string, rowsParam: string, stamp: string): D1PreparedStatement[] {
    return [
      usageRollup,
      endUserRollup,
      tagRollup,
      hourlyRollup,
      minutelyRollup,
      totalsRollup,
      lookupFailureRollup,
      mcpRollup,
    ].map((sql) => this.db.prepare(sql(rows)).bind(rowsParam, stamp));
  }

  /** Writes the rows' objects; the D1 index keeps the key and leaves the payloads to R2. */
  private async archived(rows: readonly LogRow[]): Promise<LogRow[]> {
    if (rows.length === 0 || !this.archive) return [];
    await writeArchive(this.archive, rows);
    return rows.map((row) => {
      const payload = row.request_payload !== null || row.response_payload !== null;
      return { ...row, request_payload: null, response_payload: null, payload_archived: payload ? 1 : 0 };
    });
  }

  /** Deletes up to `limit` raw log rows older than `cutoff`; rollups are untouched. */
  async deleteBefore(cutoff: number, limit: number): Promise<number> {
    const result = await this.db
      .prepare(
        'DELETE FROM request_logs WHERE id IN (SELECT id FROM request_logs WHERE time < ? ORDER BY time LIMIT ?)',
      )
      .bind(cutoff, limit)
      .run();
    return result.meta.changes ?? 0;
  }

  /** Deletes the per-minute analytics buckets that start before `cutoff` (the hourly ones are kept). */
  async deleteMinutesBefore(cutoff: number): Promise<number> {
    const result = await this.db.prepare('DELETE FROM usage_minutely WHERE start < ?').bind(cutoff).run();
    return result.meta.changes ?? 0;
  }

  /** Forgets archive objects recorded before `cutoff` (rollups-only mode); queues redeliver for 14 days at most. */
  async deleteIngestBefore(cutoff: number): Promise<number> {
    const result = await this.db.prepare('DELETE FROM log_ingest WHERE at < ?').bind(cutoff).run();
    return result.meta.changes ?? 0;
  }

  /** Forgets the receipts of isolates whose last batch arrived before `cutoff` (whole isolates, so counts stay exact). */
  async deleteReceiptsBefore(cutoff: number): Promise<number> {
    const result = await this.db
      .prepare(
        `DELETE FROM log_batches WHERE isolate IN
          (SELECT isolate FROM log_batches GROUP BY isolate HAVING max(received_at) < ?)`,
      )
      .bind(cutoff)
      .run();
    return result.meta.changes ?? 0;
  }
}

/** A row as its columns' values, in INSERT_LOGS's order. */
const logTuple = (row: LogRow): unknown[] => LOG_COLUMNS.map((c) => row[c]);

/** Only what the rollups read, for a write with no index (payloads and the rest stay in R2), in FRESH_ROWS's order. */
const rollupTuple = (row: LogRow): unknown[] => ROLLUP_COLUMNS.map((c) => row[c]);

/** Without an archive, D1 holds the whole row and points at no object. */
const unarchived = (row: LogRow): LogRow => ({ ...row, archive_key: null, payload_archived: 0 });

/** JSON arrays of at most ~CHUNK_BYTES each (a single oversized item goes alone). */
function chunks(items: readonly object[]): string[] {
  const out: string[] = [];
  let parts: string[] = [];
  let size = 0;
  for (const item of items) {
    const json = JSON.stringify(item);
    if (parts.length > 0 && size + json.length > CHUNK_BYTES) {
      out.push(`[${parts.join(',')}]`);
      parts = [];
      size = 0;
    }
    parts.push(json);
    size += json.length + 1;
  }
  if (parts.length > 0) out.push(`[${parts.join(',')}]`);
  return out;
}
