/**
 * Item references of POST /v1/responses, pure: an input item `{type: "item_reference", id}` (or an item with
 * only an id) names an item of an earlier response instead of repeating it. Clients send them whenever they
 * stored that response (the Vercel AI SDK does by default, for the assistant text and tool calls of a
 * multi-step run). The gateway resolves the ones that name an item it issued: every item id it mints carries
 * its response's base (`fc_<base>_2`, `msg_<base>_i0`: src/codecs/responses/response.ts and ./conversation.ts),
 * so the record is found from the id alone, tenant-scoped like every read. An id it did not issue (an
 * OpenAI item of a same-format answer) is left as it is: OpenAI resolves its own, and any other provider's
 * codec refuses it with a 400 that names it.
 */
import type { ResponseItem, StoredResponse } from './stored-response';

/** An item id the gateway minted: a kind prefix, its response's base, and its place (`i` for an input item). */
const MINTED_ITEM = /^[a-z]+_([A-Za-z0-9]+)_i?\d+$/;

/** The response id an item id was minted under, or null for an id the gateway did not issue. */
export function responseOfItem(itemId: string): string | null {
  const match = MINTED_ITEM.exec(itemId);
  return match ? `resp_${match[1]}` : null;
}

/** Whether an input item is a reference (OpenAI's `item_reference`, or an item with nothing but an id). */
export function isReference(item: unknown): item is { id: string } {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
  const { type, id, role } = item as Record<string, unknown>;
  return typeof id === 'string' && (type === 'item_reference' || (type === undefined && role === undefined));
}

/** The references to resolve: the response ids they name, deduplicated; empty when there are none to resolve. */
export function referencedResponses(input: unknown): string[] {
  if (!Array.isArray(input)) return [];
  const ids = new Set<string>();
  for (const item of input) {
    if (!isReference(item)) continue;
    const response = responseOfItem(item.id);
    if (response) ids.add(response);
  }
  return [...ids];
}

/** The items of a record by id: its own input and its output (the context items were never issued ids). */
function itemsOf(record: StoredResponse): Map<string, ResponseItem> {
  const byId = new Map<string, ResponseItem>();
  for (const item of [...record.input, ...record.response.output]) if (item.id) byId.set(item.id, item);
  return byId;
}

/**
 * The input with every resolvable reference replaced by the item it names (without its id: upstreams are
 * not told ids they never issued). `records` are the referenced responses found for the caller's tenant;
 * a reference whose response or item is not among them is returned as `missing`.
 */
export function resolveReferences(
  input: readonly unknown[],
  records: readonly StoredResponse[],
): { input: unknown[]; missing: string | null } {
  const items = new Map<string, ResponseItem>();
  for (const record of records) for (const [id, item] of itemsOf(record)) items.set(id, item);
  const out: unknown[] = [];
  for (const item of input) {
    if (!isReference(item) || responseOfItem(item.id) === null) {
      out.push(item);
      continue;
    }
    const found = items.get(item.id);
    if (!found) return { input: out, missing: item.id };
    const { id: _id, ...rest } = found;
    out.push(rest);
  }
  return { input: out, missing: null };
}
