/**
 * Browser origins a key may be called from (CORS), and the one check the gateway makes (pure).
 *
 * An entry is a serialised origin exactly as browsers send it in `Origin`: `https://app.example.com`,
 * `http://localhost:5173` (scheme, lowercase host, a port only when not the scheme's default, no path,
 * no trailing slash). Storing that form lets the hot path compare strings instead of parsing URLs.
 * No wildcards and no `null` origin: a browser key is a deliberate, narrow grant.
 */
import * as z from 'zod';

export const MAX_ORIGINS = 50;

/** What a serialised http(s) origin may contain: no wildcard, userinfo, path, query or fragment. */
const ORIGIN_CHARS = /^https?:\/\/[a-z0-9.\-[\]:]+$/;

/** The origin `value` names, serialised, or null when it is not an http(s) origin at all. */
function serialised(value: string): string | null {
  if (value.includes('*')) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

export const Origin = z
  .string()
  .max(300)
  .superRefine((value, ctx) => {
    const origin = serialised(value);
    if (origin === value && ORIGIN_CHARS.test(value)) return;
    const hint = origin ? ` (did you mean '${origin}'?)` : '';
    ctx.addIssue({
      code: 'custom',
      message: `'${value}' is not an origin: expected scheme://host[:port] with no path, like https://app.example.com${hint}`,
    });
  });

export const AllowedOrigins = z
  .array(Origin)
  .max(MAX_ORIGINS)
  .refine((list) => new Set(list).size === list.length, 'each origin may appear only once')
  .describe(
    `Browser origins allowed to call /v1 with this key (CORS), like "https://app.example.com"; at most ${MAX_ORIGINS}. Empty: no browser origin.`,
  );

/** Pure: may a request carrying this `Origin` use a key with this list? */
export function originAllowed(allowed: readonly string[], origin: string): boolean {
  return allowed.includes(origin);
}
