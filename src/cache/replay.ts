/**
 * Turns a cached response back into what the client asked for (pure): the JSON
 * as stored, or a well-formed SSE stream of the API's own events, with usage
 * (OpenAI: only when the client asked) and the terminator. Each client format's
 * codec writes its own events (src/codecs/<format>/replay.ts).
 */
import { CLIENT_CODECS } from '../codecs/index';
import type { CachedEntry } from './entry';

export function replaySse(entry: CachedEntry, includeUsage: boolean): string {
  return CLIENT_CODECS[entry.format].replay(entry.body, includeUsage);
}
