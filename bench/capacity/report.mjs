/**
 * The capacity-model section of the bench report (bench/lib/report.mjs calls
 * it): the log write path per mode (whole rows, archive and index, archive and
 * rollups only) and payload share, key lookups per tier, the limiter figures
 * it reused, and D1 growth at a steady rate.
 */
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (header, rows) => [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
const fx = (v, d) => (Number.isFinite(v) ? v.toFixed(d) : '–');
const int = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
const gb = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1e9).toFixed(2)} GB` : '–');
const pct = (share) => `${Math.round(share * 100)} %`;
const MODES = {
  whole: 'whole rows in D1',
  index: 'archive (R2 + D1 index)',
  rollups: 'archive, rollups only',
};
/** A result's mode; results saved before the rollups-only mode carry only `archive`. */
const mode = (l) => MODES[l.mode ?? (l.archive ? 'index' : 'whole')];

export function capacityModelSection(c) {
  const s = c.shape;
  const parts = [
    '## Capacity model (log write path, key lookups)',
    '',
    `Queue batches of ${s.messages} messages, each a producer batch of ${s.lo}–${s.hi} events over ${s.tenants} tenants, ` +
      `consumed one after another by the real consumer against local D1 and R2 (one workerd process; its CPU includes ` +
      `the local D1 and R2 simulators). Logged payloads: ${s.requestChars} + ${s.responseChars} characters.`,
    '',
    table(
      [
        'payloads',
        'mode',
        'events',
        'events / message',
        'message KB',
        'events /s',
        'CPU ms / event',
        'D1 statements / batch',
        'D1 rows written / event',
        'R2 puts / batch',
        'R2 bytes / event',
        'D1 bytes / event',
        'D1 bytes / batch',
        'log_ingest rows / message',
      ],
      c.logs.map((l) => [
        pct(l.payloadShare),
        mode(l),
        int(l.events),
        fx(l.eventsPerMessage, 1),
        fx(Number.isFinite(l.messageBytes) ? l.messageBytes / 1000 : null, 1),
        int(l.eventsPerSecond),
        fx(l.cpuMsPerEvent, 3),
        fx(l.statementsPerBatch, 1),
        fx(l.rowsWrittenPerEvent, 2),
        fx(l.putsPerBatch, 0),
        int(l.putBytesPerEvent),
        int(l.d1BytesPerEvent),
        int(l.d1BytesPerBatch),
        fx(l.ingestRowsPerMessage, 2),
      ]),
    ),
    '',
    '**Key lookup** (TieredKeyStore, time per lookup net of the request itself):',
    '',
    table(
      ['tier', 'µs / lookup', 'lookups timed'],
      Object.entries(c.keys).map(([tier, k]) => [
        tier,
        fx(k.usPerLookup, 1),
        int((k.lookupsPerRequest ?? 0) * k.requests),
      ]),
    ),
  ];
  if (c.limiter) {
    parts.push(
      '',
      `**Limiter object** (from ${c.limiter.source}, ${c.limiter.isolates} driver isolates):`,
      '',
      table(
        ['LIMITS_LEASES', 'highest rate held /s', 'object calls / request', 'CPU ms / request', 'p99 ms'],
        Object.entries(c.limiter.modes).map(([leases, m]) => [
          leases,
          int(m.topSustainedRps),
          fx(m.objectCallsPerRequest, 4),
          fx(m.cpuMsPerRequest, 2),
          fx(m.p99Ms, 1),
        ]),
      ),
    );
  } else
    parts.push(
      '',
      'No hot-tenant result found: run `--only hot-tenant,capacity-model` for the limiter figures.',
    );
  parts.push(
    '',
    `**D1 growth** at 100 requests/s, kept as retention keeps it (the unit is a request_logs row, or in the ` +
      'rollups-only mode a producer batch: its log_ingest rows and receipt):',
    '',
    table(
      [
        'payloads',
        'mode',
        'units / day',
        'D1 bytes / unit',
        'D1 per day',
        'kept days',
        'D1 at steady state',
        'largest average rate before 10 GB, /s',
        'R2 per day',
      ],
      c.growth.map((g) => [
        pct(g.payloadShare),
        mode(g),
        int(g.rowsPerDay),
        int(g.bytesPerRow),
        gb(g.bytesPerDay),
        String(g.keepDays),
        gb(g.steadyBytes),
        int(g.largestRps),
        gb(g.rps * 86_400 * (g.r2BytesPerRequest ?? g.r2BytesPerRow ?? 0)),
      ]),
    ),
  );
  return parts.join('\n');
}
