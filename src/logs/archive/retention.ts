/**
 * Archive retention, run by the daily cron: deletes every `date=` prefix
 * older than the retention window, tenant by tenant. It lists only prefixes
 * (R2's delimiter listing: tenants, then their days) and the keys of expired
 * days, never a kept object, and deletes up to 1,000 keys per call. One run
 * deletes at most MAX_DELETES objects; a larger backlog is finished by the next.
 * (An R2 lifecycle rule on `logs/v1/` can do the same without the Worker; see docs/logs.md.)
 */
import { ARCHIVE_ROOT, dayOfPrefix } from './layout';

const MAX_DELETES = 100_000;

async function* prefixes(bucket: R2Bucket, prefix: string): AsyncGenerator<string> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, delimiter: '/', cursor });
    yield* page.delimitedPrefixes;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/** Deletes archived days before `cutoffDay` ('YYYY-MM-DD', exclusive); returns the objects and days deleted. */
export async function pruneArchive(
  bucket: R2Bucket,
  cutoffDay: string,
): Promise<{ objects: number; days: number; capped: boolean }> {
  let objects = 0;
  let days = 0;
  for await (const tenant of prefixes(bucket, ARCHIVE_ROOT)) {
    for await (const date of prefixes(bucket, tenant)) {
      const day = dayOfPrefix(date);
      if (day === null) continue;
      if (day >= cutoffDay) break; // days list in order: the rest are kept
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ prefix: date, cursor });
        if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key));
        objects += page.objects.length;
        cursor = page.truncated ? page.cursor : undefined;
        if (objects >= MAX_DELETES) return { objects, days, capped: true };
      } while (cursor);
      days += 1;
    }
  }
  return { objects, days, capped: false };
}
