/**
 * Reads raw logs back from R2 (layout: layout.ts), never by scanning
 * the bucket:
 * - one request by id: its hour (a UUIDv7 names it) and tenant fix one
 *   prefix; one listing of it, the objects' Bloom filters pick the object that
 *   holds the id, and that object is read (a false positive costs one more);
 * - one object by key, when the recent index in D1 names it;
 * - a tenant's range, hour by hour, as one NDJSON stream: objects are read
 *   one at a time and decompressed as they stream, so memory stays flat
 *   however long the range.
 */
import { bloomHas } from './bloom';
import { hourPrefix, hoursBetween } from './layout';
import type { LogDetail } from '../read/logs';

/** Lines of a gzip NDJSON object, decoded as they arrive. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const text = body.pipeThrough(new DecompressionStream('gzip')).pipeThrough(new TextDecoderStream());
  let rest = '';
  for await (const chunk of text as unknown as AsyncIterable<string>) {
    rest += chunk;
    let nl = rest.indexOf('\n');
    while (nl !== -1) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (line) yield line;
      nl = rest.indexOf('\n');
    }
  }
  if (rest) yield rest;
}

/** The one log of `id` in the object at `key`; null when the object or the id is not there. */
export async function readFromObject(bucket: R2Bucket, key: string, id: string): Promise<LogDetail | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  const needle = `"id":${JSON.stringify(id)}`;
  for await (const line of lines(object.body)) {
    if (line.includes(needle)) return JSON.parse(line) as LogDetail;
  }
  return null;
}

/** Objects under a prefix with their custom metadata, every page. */
async function* listed(bucket: R2Bucket, prefix: string): AsyncGenerator<R2Object> {
  let cursor: string | undefined;
  do {
    // `include` is R2's documented list option; the workers-types package lags behind it.
    const options = { prefix, cursor, include: ['customMetadata'] } as R2ListOptions;
    const page = await bucket.list(options);
    yield* page.objects;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/** One request's log from the archive, given its tenant and time (from its UUIDv7 id). */
export async function findArchived(
  bucket: R2Bucket,
  tenantId: string | null,
  time: number,
  id: string,
): Promise<LogDetail | null> {
  for await (const object of listed(bucket, hourPrefix(tenantId, time))) {
    const meta = object.customMetadata ?? {};
    const first = Number(meta.first);
    const last = Number(meta.last);
    if (Number.isFinite(first) && Number.isFinite(last) && (time < first || time > last)) continue;
    if (meta.ids !== undefined && !bloomHas(meta.ids, id)) continue;
    const found = await readFromObject(bucket, object.key, id);
    if (found) return found;
  }
  return null;
}

const encoder = new TextEncoder();

/**
 * A tenant's logs from `from` (inclusive) to `to` (exclusive) as NDJSON, oldest
 * hour first (within an hour, in object order). Pull-based: the next object is
 * read only when the client has taken what came before.
 */
export function exportArchived(
  bucket: R2Bucket,
  tenantId: string | null,
  from: number,
  to: number,
): ReadableStream<Uint8Array> {
  async function* rows(): AsyncGenerator<Uint8Array> {
    for (const hour of hoursBetween(from, to)) {
      for await (const object of listed(bucket, hourPrefix(tenantId, hour))) {
        const meta = object.customMetadata ?? {};
        if (Number(meta.last) < from || Number(meta.first) >= to) continue;
        const body = await bucket.get(object.key);
        if (!body) continue;
        for await (const line of lines(body.body)) {
          const time = Number(/"time":(\d+)/.exec(line)?.[1]);
          if (time >= from && time < to) yield encoder.encode(`${line}\n`);
        }
      }
    }
  }
  const source = rows();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await source.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await source.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
