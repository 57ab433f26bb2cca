/** What the formats' token-counting codecs share (pure): the counting URL beside a chat URL, and the count read back. */
import { badUpstream, num } from './json';

/**
 * `chatUrl` with its path's last segment (or, with `method`, the `:method` suffix Google's
 * APIs use) replaced, its query kept: `…/converse` → `…/count-tokens`, `…:generateContent` → `…:countTokens`.
 */
export function siblingUrl(chatUrl: string, replace: (path: string) => string): string {
  const query = chatUrl.indexOf('?');
  const path = query === -1 ? chatUrl : chatUrl.slice(0, query);
  return replace(path) + (query === -1 ? '' : chatUrl.slice(query));
}

/** A count as a counting API reports it: a non-negative integer, else the provider's fault (502). */
export function tokenCount(value: unknown, field: string): number {
  const n = num(value);
  if (n === null || n < 0 || !Number.isInteger(n))
    throw badUpstream(`a token count without a valid '${field}'`);
  return n;
}
