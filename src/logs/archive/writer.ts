/**
 * Writes raw logs to R2 (layout: layout.ts): each producer batch's
 * rows, grouped by tenant and hour, as one gzip NDJSON object each, lines in
 * the admin API's log shape, payloads included when they were logged. The
 * object's key is fixed by the batch, so a retried batch overwrites what an
 * earlier attempt wrote. Custom metadata carries the object's first and last
 * request time, its row count and a Bloom filter of its ids (bloom.ts).
 * Any failed put throws: the consumer then retries the whole batch.
 */
import { bloomOf } from './bloom';
import { archiveLine } from './line';
import type { LogRow } from '../rows';

export interface ArchivedObject {
  key: string;
  ids: string[];
}

const encoder = new TextEncoder();

export async function gzip(text: string): Promise<ArrayBuffer> {
  const stream = new Blob([encoder.encode(text)]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

/** Rows grouped by the object they belong in (their archive_key, set by messages.ts). */
export function groupForArchive(rows: readonly LogRow[]): Map<string, LogRow[]> {
  const groups = new Map<string, LogRow[]>();
  for (const row of rows) {
    const key = typeof row.archive_key === 'string' ? row.archive_key : null;
    if (key === null) throw new Error(`log row ${String(row.id)} has no archive key`);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

export async function writeArchive(bucket: R2Bucket, rows: readonly LogRow[]): Promise<ArchivedObject[]> {
  const groups = groupForArchive(rows);
  return Promise.all(
    [...groups].map(async ([key, rows]) => {
      const ids = rows.map((r) => String(r.id));
      const times = rows.map((r) => Number(r.time));
      const body = await gzip(`${rows.map(archiveLine).join('\n')}\n`);
      await bucket.put(key, body, {
        httpMetadata: { contentType: 'application/x-ndjson', contentEncoding: 'gzip' },
        customMetadata: {
          rows: String(rows.length),
          first: String(Math.min(...times)),
          last: String(Math.max(...times)),
          ids: bloomOf(ids),
        },
      });
      return { key, ids };
    }),
  );
}
