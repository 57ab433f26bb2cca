/**
 * One page of a stored response's input items, as GET /v1/responses/{id}/input_items answers it (OpenAI's
 * ResponseItemList): `order` desc (the default, as OpenAI's) or asc, `after` an item id of the previous page,
 * `limit` 1–100 (default 20). An `after` that names no item of the list gives an empty page. Pure.
 */
import type { ResponseItem } from './stored-response';

export interface ItemPageRequest {
  readonly limit: number;
  readonly order: 'asc' | 'desc';
  readonly after: string | null;
}

export interface ItemPage {
  readonly object: 'list';
  readonly data: ResponseItem[];
  readonly first_id: string | null;
  readonly last_id: string | null;
  readonly has_more: boolean;
}

export function itemPage(items: readonly ResponseItem[], request: ItemPageRequest): ItemPage {
  const ordered = request.order === 'asc' ? items : [...items].reverse();
  const start = request.after === null ? 0 : ordered.findIndex((item) => item.id === request.after) + 1;
  const rest = request.after !== null && start === 0 ? [] : ordered.slice(start);
  const data = rest.slice(0, request.limit);
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: rest.length > data.length,
  };
}
