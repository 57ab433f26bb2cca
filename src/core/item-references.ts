/**
 * Item references in a Responses request's `input` (OpenAI's `{"type": "item_reference", "id": …}`; an item
 * with neither a type nor a role is one too), pure. The Vercel AI SDK's default provider sends the items of
 * earlier answers this way whenever `store` is on, its default, instead of the items themselves; OpenAI
 * resolves them from what it stored. The gateway is the store (upstreams are called with `store: false`), so
 * it resolves them from the caller's stored responses before anything else reads the body.
 *
 * Which response holds an item is read from its id: the gateway names the output items of the answers it
 * writes `<kind>_<base>_<n>` and the input items it stores `<kind>_<base>_i<n>`, for the response
 * `resp_<base>`. An id of any other shape (an OpenAI-format provider's own, passed through as it sent it)
 * names no response here: the reference is left as it is, for the provider to resolve or refuse.
 */
import type { ResponseItem, StoredResponse } from './stored-response';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The id an input item refers to, when it is a reference (and names one). */
export function referenceId(item: unknown): string | undefined {
  if (!isRecord(item)) return undefined;
  const reference = item.type === 'item_reference' || (item.type === undefined && item.role === undefined);
  return reference && typeof item.id === 'string' ? item.id : undefined;
}

/** The ids the body's `input` refers to, in order, repeats removed; empty for a string or absent input. */
export function referencedIds(input: unknown): string[] {
  if (!Array.isArray(input)) return [];
  const ids = new Set<string>();
  for (const item of input) {
    const id = referenceId(item);
    if (id !== undefined) ids.add(id);
  }
  return [...ids];
}

/** `<kind>_<base>_<n>` or `<kind>_<base>_i<n>`: a lower-case kind (msg, fc, rs, …), then the response's base. */
const GATEWAY_ITEM_ID = /^[a-z]+_([A-Za-z0-9_-]+)_i?\d+$/;

/** The response an item id the gateway made belongs to; null for an id it did not make. */
export function responseOfItem(itemId: string): string | null {
  const match = GATEWAY_ITEM_ID.exec(itemId);
  return match ? `resp_${match[1]}` : null;
}

/** The item of that id in a stored response: one of its own input items or one of its output items. */
export function storedItem(record: StoredResponse, itemId: string): ResponseItem | undefined {
  return (
    record.input.find((item) => item.id === itemId) ??
    record.response.output.find((item) => item.id === itemId)
  );
}

/**
 * `input` with every reference found in `items` replaced by the item, without its id (a stateless upstream
 * has no item to refer to, as when a stored conversation is replayed); a reference not found stays as sent.
 */
export function resolveReferences(input: unknown[], items: ReadonlyMap<string, ResponseItem>): unknown[] {
  return input.map((item) => {
    const id = referenceId(item);
    const found = id === undefined ? undefined : items.get(id);
    if (found === undefined) return item;
    const { id: _id, ...rest } = found;
    return rest;
  });
}
