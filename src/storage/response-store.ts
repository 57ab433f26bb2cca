/**
 * Stored responses (the port, and its adapter over R2 and D1): the records of src/core/stored-response.ts,
 * per tenant, read and deleted only by (tenant, id), so no tenant reaches another's.
 *
 * With the RESPONSES bucket: each record is one JSON object `responses/<tenant_id>/<id>`, its expiry in the
 * object's customMetadata (`expiresAt`, epoch ms), written before `put` resolves, so a later request on any
 * isolate finds it (R2 reads after writes are strongly consistent); the D1 row `stored_responses` is its index
 * (what the cron sweeps by expiry), written off the response path through the caller's `waitUntil`.
 * Without the bucket the record goes in the row's `body` column, written before `put` resolves, and a record
 * larger than D1_BODY_MAX_BYTES (1 MiB; D1 refuses rows above 2 MB) is not stored: `put` rejects, and the
 * caller logs it. A record kept in D1 before the bucket was bound is still found there.
 * An expired record is missing for every reader, whether or not the cron has swept it yet.
 */
import { type ItemPage, type ItemPageRequest, itemPage } from '../core/item-page';
import { isResponseId, StoredResponse } from '../core/stored-response';

export interface ResponseStore {
  /** Keeps a record; the record itself is written when this resolves, its index row through `waitUntil`. */
  put(record: StoredResponse, waitUntil: (work: Promise<unknown>) => void): Promise<void>;
  /** The tenant's live record of that id; null when there is none, or it expired. */
  get(tenantId: string, id: string, now: number): Promise<StoredResponse | null>;
  /** Deletes the record; false when the tenant had no live record of that id. */
  delete(tenantId: string, id: string, now: number): Promise<boolean>;
  /** A page of the record's own input items; null when the tenant has no live record of that id. */
  inputItems(tenantId: string, id: string, now: number, page: ItemPageRequest): Promise<ItemPage | null>;
  /** Deletes up to `limit` (≤ 1000) records expired at `now`, oldest first; returns how many went. */
  sweep(now: number, limit: number): Promise<number>;
}

/** The largest record kept in D1's `body` column (without the bucket), in UTF-8 bytes of its JSON. */
export const D1_BODY_MAX_BYTES = 1_048_576;
/** R2 deletes at most 1,000 keys per call. */
export const SWEEP_MAX = 1000;

export class ResponseTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`A stored response holds at most ${D1_BODY_MAX_BYTES} bytes in D1; this one has ${bytes}.`);
    this.name = 'ResponseTooLarge';
  }
}

export function responseObjectKey(tenantId: string, id: string): string {
  return `responses/${tenantId}/${id}`;
}

interface BodyRow {
  body: string | null;
  expires_at: number;
}

const INSERT =
  'INSERT OR REPLACE INTO stored_responses (tenant_id, id, key_id, model, created_at, expires_at, bytes, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';

export class StoredResponses implements ResponseStore {
  /** `bucket`: the RESPONSES binding, or null to keep records in D1. */
  constructor(
    private readonly db: D1Database,
    private readonly bucket: R2Bucket | null,
  ) {}

  async put(record: StoredResponse, waitUntil: (work: Promise<unknown>) => void): Promise<void> {
    const json = new TextEncoder().encode(JSON.stringify(record));
    const row = (body: string | null) =>
      this.db
        .prepare(INSERT)
        .bind(
          record.tenant_id,
          record.id,
          record.key_id,
          record.model,
          record.created_at,
          record.expires_at,
          json.byteLength,
          body,
        )
        .run();
    if (!this.bucket) {
      if (json.byteLength > D1_BODY_MAX_BYTES) throw new ResponseTooLarge(json.byteLength);
      await row(new TextDecoder().decode(json));
      return;
    }
    await this.bucket.put(responseObjectKey(record.tenant_id, record.id), json, {
      httpMetadata: { contentType: 'application/json' },
      customMetadata: { expiresAt: String(record.expires_at) },
    });
    waitUntil(
      row(null).catch((err: unknown) => {
        // The object is kept and served; only the cron's sweep misses it (docs: the R2 lifecycle backstop).
        console.error('stored response index write failed', errorText(err), record.id);
      }),
    );
  }

  async get(tenantId: string, id: string, now: number): Promise<StoredResponse | null> {
    if (!isResponseId(id)) return null;
    if (this.bucket) {
      const object = await this.bucket.get(responseObjectKey(tenantId, id));
      if (object) {
        // An expired object's body is read too (until the cron sweeps it): one left unread is reported.
        const text = await object.text();
        return live(Number(object.customMetadata?.expiresAt), now)
          ? readRecord(text, tenantId, id, now)
          : null;
      }
    }
    const row = await this.db
      .prepare('SELECT body, expires_at FROM stored_responses WHERE tenant_id = ? AND id = ?')
      .bind(tenantId, id)
      .first<BodyRow>();
    return row?.body && live(row.expires_at, now) ? readRecord(row.body, tenantId, id, now) : null;
  }

  async delete(tenantId: string, id: string, now: number): Promise<boolean> {
    if (!isResponseId(id)) return false;
    let found = false;
    if (this.bucket) {
      const key = responseObjectKey(tenantId, id);
      const head = await this.bucket.head(key);
      if (head) {
        found = live(Number(head.customMetadata?.expiresAt), now);
        await this.bucket.delete(key);
      }
    }
    const row = await this.db
      .prepare('DELETE FROM stored_responses WHERE tenant_id = ? AND id = ? RETURNING body, expires_at')
      .bind(tenantId, id)
      .first<BodyRow>();
    return found || (row !== null && row.body !== null && live(row.expires_at, now));
  }

  async inputItems(
    tenantId: string,
    id: string,
    now: number,
    page: ItemPageRequest,
  ): Promise<ItemPage | null> {
    const record = await this.get(tenantId, id, now);
    return record ? itemPage(record.input, page) : null;
  }

  async sweep(now: number, limit: number): Promise<number> {
    const { results } = await this.db
      .prepare('SELECT tenant_id, id FROM stored_responses WHERE expires_at <= ? ORDER BY expires_at LIMIT ?')
      .bind(now, Math.min(limit, SWEEP_MAX))
      .all<{ tenant_id: string; id: string }>();
    if (results.length === 0) return 0;
    // Objects first: if R2 fails, the rows stay and the next run tries again.
    if (this.bucket) await this.bucket.delete(results.map((r) => responseObjectKey(r.tenant_id, r.id)));
    await this.db
      .prepare(
        `DELETE FROM stored_responses WHERE (tenant_id, id) IN
           (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))`,
      )
      .bind(JSON.stringify(results.map((r) => [r.tenant_id, r.id])))
      .run();
    return results.length;
  }
}

/** Live until its expiry; a missing or unreadable expiry is treated as expired. */
function live(expiresAt: number, now: number): boolean {
  return Number.isFinite(expiresAt) && now < expiresAt;
}

/** A record read back, checked: its shape, and that it is the tenant's record of that id and still live. */
function readRecord(text: string, tenantId: string, id: string, now: number): StoredResponse | null {
  let parsed: ReturnType<typeof StoredResponse.safeParse>;
  try {
    parsed = StoredResponse.safeParse(JSON.parse(text));
  } catch {
    console.error('stored response unreadable', id);
    return null;
  }
  if (!parsed.success) {
    console.error('stored response unreadable', id);
    return null;
  }
  const record = parsed.data;
  if (record.tenant_id !== tenantId || record.id !== id || !live(record.expires_at, now)) return null;
  return record;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
