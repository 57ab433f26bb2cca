/**
 * One request's log by id, wherever it is: the recent index in D1 first (its
 * payload, when logged, read from the R2 object the row names); else, with an
 * archive bound, R2 itself, at the hour the UUIDv7 id names, under the tenant
 * given (src/logs/archive/reader.ts). Never a scan of D1 or of the bucket.
 */
import { uuid7Time } from '../../util/uuid7';
import { findArchived, readFromObject } from '../archive/reader';
import { type LogDetail, LogReader } from './logs';

export type LookupResult =
  | { found: LogDetail }
  /** Not in the index, and the archive needs the tenant to know where to look. */
  | { missing: 'tenant_needed' }
  | { missing: 'not_found' };

export async function lookupLog(
  db: D1Database,
  archive: R2Bucket | null,
  id: string,
  tenantId: string | undefined,
): Promise<LookupResult> {
  const indexed = await new LogReader(db).getIndexed(id);
  if (indexed) {
    if (tenantId !== undefined && indexed.detail.tenant_id !== tenantId) return { missing: 'not_found' };
    if (archive && indexed.payloadArchived && indexed.archiveKey) {
      const full = await readFromObject(archive, indexed.archiveKey, id);
      if (full) return { found: full };
    }
    return { found: indexed.detail };
  }
  const time = uuid7Time(id);
  if (!archive || time === null) return { missing: 'not_found' };
  if (tenantId === undefined) return { missing: 'tenant_needed' };
  const archived = await findArchived(archive, tenantId, time, id);
  return archived ? { found: archived } : { missing: 'not_found' };
}
