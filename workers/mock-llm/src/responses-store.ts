/**
 * The mock's stored responses (`store: true`, OpenAI's default): per API key
 * (its SHA-256), in the isolate's memory, so `previous_response_id`, `GET` /
 * `DELETE /v1/responses/{id}` and its `input_items` work against the mock as
 * against OpenAI. A record keeps the conversation before the request
 * (`context`), the request's own input items (each with an id) and the answer.
 * Bounded: past MAX_RECORDS the oldest record goes. A restart forgets all.
 */
import type { Item } from './responses-items';

export interface StoredResponse {
  /** The items before this request's own input: the previous responses' conversation, expanded. */
  readonly context: readonly Item[];
  /** This request's own input items, each with an `id`. */
  readonly input: readonly Item[];
  /** The Responses object the client got. */
  readonly response: Readonly<Record<string, unknown>> & { readonly output: readonly Item[] };
}

const MAX_RECORDS = 10_000;
/** `<key hash>\n<response id>` → record, in insertion order. */
const records = new Map<string, StoredResponse>();

const slot = (keyHash: string, id: string): string => `${keyHash}\n${id}`;

export function storeResponse(keyHash: string, id: string, record: StoredResponse): void {
  const at = slot(keyHash, id);
  records.delete(at);
  if (records.size >= MAX_RECORDS) {
    const oldest = records.keys().next();
    if (!oldest.done) records.delete(oldest.value);
  }
  records.set(at, record);
}

export function storedResponse(keyHash: string, id: string): StoredResponse | undefined {
  return records.get(slot(keyHash, id));
}

/** Forgets a response; false when the key had none by that id. */
export function deleteResponse(keyHash: string, id: string): boolean {
  return records.delete(slot(keyHash, id));
}

/** A stored input or output item of this key, by its id (for `item_reference`). */
export function storedItem(keyHash: string, id: string): Item | undefined {
  const prefix = `${keyHash}\n`;
  for (const [at, record] of records) {
    if (!at.startsWith(prefix)) continue;
    const found = [...record.input, ...record.response.output].find((item) => item.id === id);
    if (found) return found;
  }
  return undefined;
}
