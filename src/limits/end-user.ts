/**
 * The tenant's end user a request is for (pure), read in this order, the first present wins:
 *   1. the `x-edgeway-user` header, set by the tenant's backend (its gateway key authenticates it);
 *   2. the body's `user` (OpenAI chat, embeddings, Responses);
 *   3. the body's `safety_identifier` (OpenAI chat, Responses);
 *   4. the body's `metadata.user_id` (Anthropic messages).
 * The header wins over the body: a backend that names the user decides whose budget a request
 * spends, whatever its end user's client puts in the body. An id is 1–256 printable characters; a
 * header or field that is set but not one is refused with 400 naming it, never metered as nobody.
 */
import { badRequest } from '../core/errors';

export const END_USER_HEADER = 'x-edgeway-user';
export const MAX_END_USER_LENGTH = 256;

export interface EndUser {
  readonly id: string;
  /** Where it was read: the header's name or the body field's path (the 429's `param`). */
  readonly param: string;
}

const BODY_FIELDS: readonly (readonly [string, (body: Record<string, unknown>) => unknown])[] = [
  ['user', (b) => b.user],
  ['safety_identifier', (b) => b.safety_identifier],
  [
    'metadata.user_id',
    (b) =>
      typeof b.metadata === 'object' && b.metadata !== null
        ? (b.metadata as Record<string, unknown>).user_id
        : undefined,
  ],
];

export function endUserOf(headers: Headers, body: Readonly<Record<string, unknown>>): EndUser | null {
  const header = headers.get(END_USER_HEADER);
  if (header !== null) return { id: validEndUser(header.trim(), END_USER_HEADER), param: END_USER_HEADER };
  for (const [param, read] of BODY_FIELDS) {
    const value = read(body as Record<string, unknown>);
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') throw invalid(param);
    return { id: validEndUser(value, param), param };
  }
  return null;
}

// Printable characters only: an id is shown in the dashboard and logs, and names a Durable Object row.
function printable(id: string): boolean {
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) return false;
  }
  return true;
}

/** `id` as an end-user id, or a 400 `invalid_end_user` naming `param` (also the admin API's check). */
export function validEndUser(id: string, param: string): string {
  if (id.length === 0 || id.length > MAX_END_USER_LENGTH || !printable(id)) throw invalid(param);
  return id;
}

function invalid(param: string) {
  return badRequest(
    `${param} must name the end user in 1 to ${MAX_END_USER_LENGTH} printable characters.`,
    param,
    'invalid_end_user',
  );
}
