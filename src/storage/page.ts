/**
 * Keyset pagination over (created_at, id), newest first. The cursor is opaque to
 * clients (base64url of the last row's position), so pages stay stable while
 * rows are added, and a page costs one indexed range read however deep it is.
 */
import * as z from 'zod';
import { base64url } from '../util/crypto';

export interface Cursor {
  createdAt: number;
  id: string;
}

export interface PageRequest {
  limit: number;
  cursor: Cursor | null;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const CursorTuple = z.tuple([z.number().int().nonnegative(), z.string().min(1).max(64)]);

export function encodeCursor(cursor: Cursor): string {
  return base64url(new TextEncoder().encode(JSON.stringify([cursor.createdAt, cursor.id])));
}

/** Null when the string is not a cursor this module made. */
export function decodeCursor(raw: string): Cursor | null {
  try {
    const bin = atob(raw.replaceAll('-', '+').replaceAll('_', '/'));
    const parsed = CursorTuple.safeParse(JSON.parse(bin));
    return parsed.success ? { createdAt: parsed.data[0], id: parsed.data[1] } : null;
  } catch {
    return null;
  }
}

/** SQL fragment and bindings that continue after `cursor` (append to a WHERE with AND). */
export function afterCursor(cursor: Cursor | null): { sql: string; binds: (string | number)[] } {
  if (!cursor) return { sql: '1 = 1', binds: [] };
  return {
    sql: '(created_at < ? OR (created_at = ? AND id < ?))',
    binds: [cursor.createdAt, cursor.createdAt, cursor.id],
  };
}

export const PAGE_ORDER = 'ORDER BY created_at DESC, id DESC';

/** Turns `limit + 1` fetched rows into a page: the extra row only says there is more. */
export function toPage<R extends { created_at: number; id: string }, T>(
  rows: R[],
  limit: number,
  map: (row: R) => T,
): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept.at(-1);
  return {
    items: kept.map(map),
    nextCursor: more && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}
