/**
 * Anthropic's shapes of /v1/models (pure): a model `{type, id, display_name,
 * created_at}` with an RFC 3339 date, and a list page `{data, has_more,
 * first_id, last_id}` cut by Anthropic's `limit` (1–1000, default 20),
 * `after_id` and `before_id`. The entries are sorted by id, so a cursor is
 * placed by comparison: an id that is not (or no longer) listed still pages
 * from where it would sit, and a list that changes between pages neither
 * repeats nor skips an entry that did not move.
 */
import { badRequest } from '../core/errors';
import type { ModelEntry } from './models';

export interface AnthropicModel {
  readonly type: 'model';
  readonly id: string;
  readonly display_name: string;
  readonly created_at: string;
}

export interface AnthropicModelPage {
  readonly data: AnthropicModel[];
  readonly has_more: boolean;
  readonly first_id: string | null;
  readonly last_id: string | null;
}

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 1000;

export function anthropicModel(entry: ModelEntry): AnthropicModel {
  return {
    type: 'model',
    id: entry.id,
    // The id is the name a client sends; there is no other to show.
    display_name: entry.id,
    created_at: new Date(entry.created * 1000).toISOString().replace('.000Z', 'Z'),
  };
}

/** One page of `entries` (sorted by id) as the query asks; a bad query is a 400 naming the parameter. */
export function anthropicModelPage(
  entries: readonly ModelEntry[],
  query: URLSearchParams,
): AnthropicModelPage {
  const limit = pageLimit(query.get('limit'));
  const after = query.get('after_id');
  const before = query.get('before_id');
  if (after !== null && before !== null) {
    throw badRequest('Send at most one of after_id and before_id.', 'before_id', 'invalid_value');
  }
  let page: readonly ModelEntry[];
  let hasMore: boolean;
  if (before !== null) {
    const earlier = entries.filter((e) => e.id < before);
    page = earlier.slice(Math.max(0, earlier.length - limit));
    hasMore = earlier.length > limit;
  } else {
    const later = after === null ? entries : entries.filter((e) => e.id > after);
    page = later.slice(0, limit);
    hasMore = later.length > limit;
  }
  const data = page.map(anthropicModel);
  return {
    data,
    has_more: hasMore,
    first_id: data[0]?.id ?? null,
    last_id: data[data.length - 1]?.id ?? null,
  };
}

function pageLimit(raw: string | null): number {
  if (raw === null) return DEFAULT_PAGE_LIMIT;
  const limit = /^\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_PAGE_LIMIT)) {
    throw badRequest(`limit must be an integer from 1 to ${MAX_PAGE_LIMIT}.`, 'limit', 'invalid_value');
  }
  return limit;
}
