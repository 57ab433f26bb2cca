/**
 * Counts what the log write path asks of its bindings: D1 statements, the
 * rows D1 reports read and written (each result's meta, as D1 bills them) and
 * the database's size after the write; R2 puts and the bytes they carried.
 * LogStore uses only `prepare` and `batch` of its database and `put` of its
 * bucket, so the wrappers pass those through and count.
 */

export interface WriteTally {
  batches: number;
  statements: number;
  rowsWritten: number;
  rowsRead: number;
  /** The database's size after the last counted batch, bytes (D1's meta.size_after); null when not reported. */
  sizeAfter: number | null;
  puts: number;
  putBytes: number;
}

export function newWriteTally(): WriteTally {
  return { batches: 0, statements: 0, rowsWritten: 0, rowsRead: 0, sizeAfter: null, puts: 0, putBytes: 0 };
}

interface BillingMeta {
  rows_written?: number;
  rows_read?: number;
  size_after?: number;
}

export function countedD1(db: D1Database, tally: WriteTally): D1Database {
  const counted: Pick<D1Database, 'prepare' | 'batch'> = {
    prepare: (sql) => db.prepare(sql),
    async batch<T>(statements: D1PreparedStatement[]) {
      tally.batches++;
      tally.statements += statements.length;
      const results = await db.batch<T>(statements);
      for (const r of results) {
        const meta = r.meta as BillingMeta;
        tally.rowsWritten += meta.rows_written ?? 0;
        tally.rowsRead += meta.rows_read ?? 0;
        if (typeof meta.size_after === 'number') tally.sizeAfter = meta.size_after;
      }
      return results;
    },
  };
  return counted as D1Database;
}

export function countedR2(bucket: R2Bucket, tally: WriteTally): R2Bucket {
  const counted: Pick<R2Bucket, 'put'> = {
    put: ((key: string, value: ArrayBuffer, options?: R2PutOptions) => {
      tally.puts++;
      tally.putBytes += value.byteLength;
      return bucket.put(key, value, options);
    }) as R2Bucket['put'],
  };
  return counted as R2Bucket;
}
