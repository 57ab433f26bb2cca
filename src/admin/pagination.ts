/** The admin API's list envelope, shared by every paginated route (see storage/page.ts for the cursor). */
import type { Page } from '../storage/page';

export interface ListBody<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export function listBody<T>(page: Page<T>): ListBody<T> {
  return {
    object: 'list',
    data: page.items,
    has_more: page.nextCursor !== null,
    next_cursor: page.nextCursor,
  };
}
