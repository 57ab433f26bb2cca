/**
 * Requests answered versus events stored, from the batch receipts in
 * log_batches (migrations/0005_log_reconcile.sql). Each producing isolate
 * numbers its batches and carries a running count of the events it sent, so:
 *   sent     = Σ over isolates of the highest running count received,
 *   received = Σ events of the batches that arrived (queue, dead-letter queue
 *              or the producer's direct write),
 *   missing  = sent − received, and the gaps in each isolate's numbering say
 *              which batches they were in.
 * Exact without a write per request, up to the latest batch received from
 * each isolate: a count travels with its batch, so batches still in the queue
 * are not known yet (a gap before a later batch shows them as missing until
 * they arrive), and an isolate whose last batches were lost by the queue and
 * by D1 alike leaves no trace here (they are in the error log, whole).
 */
import * as z from 'zod';

/** Most gaps listed; `missing_batches` counts them all. */
const MAX_GAPS = 100;

export const Reconciliation = z.object({
  object: z.literal('log_reconciliation'),
  isolates: z.number().describe('Producing isolates with at least one batch received.'),
  batches: z.number().describe('Batches received.'),
  sent: z.number().describe("Events (= /v1 requests answered) per the producers' running counts."),
  received: z.number().describe('Events in the batches received.'),
  stored: z.number().describe('Of them, written to request_logs (and the usage rollups).'),
  dead_lettered: z.number().describe('Of them, parked in dead_letters.'),
  fallback: z
    .number()
    .describe('Of the received, written straight to D1 by the producer after the queue refused them.'),
  missing: z.number().describe('sent − received: events not (yet) received.'),
  missing_batches: z.number().describe('Gaps in the batch numbering.'),
  gaps: z
    .array(z.object({ isolate: z.string(), first_seq: z.number(), last_seq: z.number() }))
    .describe(`Missing batch numbers per isolate (at most ${MAX_GAPS} ranges).`),
  balanced: z.boolean().describe('Nothing missing: sent = stored + dead_lettered.'),
});
export type Reconciliation = z.output<typeof Reconciliation>;

const Totals = z.object({
  isolates: z.number(),
  batches: z.number().nullable(),
  sent: z.number().nullable(),
  received: z.number().nullable(),
  stored: z.number().nullable(),
  dead: z.number().nullable(),
  fallback: z.number().nullable(),
  missing_batches: z.number().nullable(),
});
const Gap = z.object({ isolate: z.string(), first_seq: z.number(), last_seq: z.number() });

const TOTALS = `SELECT count(*) AS isolates, sum(n) AS batches, sum(sent) AS sent, sum(received) AS received,
    sum(stored) AS stored, sum(dead) AS dead, sum(fallback) AS fallback, sum(top - n) AS missing_batches
  FROM (SELECT isolate, count(*) AS n, max(seq) AS top, max(sent) AS sent, sum(events) AS received,
      sum(stored) AS stored, sum(dead) AS dead, sum(CASE WHEN via = 'direct' THEN events ELSE 0 END) AS fallback
    FROM log_batches GROUP BY isolate)`;

const GAPS = `SELECT isolate, prev + 1 AS first_seq, seq - 1 AS last_seq
  FROM (SELECT isolate, seq, coalesce(lag(seq) OVER (PARTITION BY isolate ORDER BY seq), 0) AS prev FROM log_batches)
  WHERE seq - prev > 1 ORDER BY isolate, seq LIMIT ${MAX_GAPS}`;

export async function reconcile(db: D1Database): Promise<Reconciliation> {
  const [totals, gaps] = await db.batch([db.prepare(TOTALS), db.prepare(GAPS)]);
  const t = Totals.parse(totals?.results[0]);
  const sent = t.sent ?? 0;
  const received = t.received ?? 0;
  const missingBatches = t.missing_batches ?? 0;
  return {
    object: 'log_reconciliation',
    isolates: t.isolates,
    batches: t.batches ?? 0,
    sent,
    received,
    stored: t.stored ?? 0,
    dead_lettered: t.dead ?? 0,
    fallback: t.fallback ?? 0,
    missing: sent - received,
    missing_batches: missingBatches,
    gaps: (gaps?.results ?? []).map((g) => Gap.parse(g)),
    balanced: sent === received && missingBatches === 0,
  };
}
