/**
 * Puts `x-ratelimit-*` headers on every /v1 response after auth that does not
 * already carry them (the reservation's own headers and 429s do): errors before
 * the reservation and provider errors after it. No Durable Object call: the
 * values come from the key's last quota in this isolate (see snapshots.ts).
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { knownHeaders } from './snapshots';

export const rateLimitHeaders = createMiddleware<AppEnv>(async function rateLimitHeaders(c, next) {
  await next();
  const principal = c.get('principal');
  const headers = c.res.headers;
  if (headers.has('x-ratelimit-limit-requests') || headers.has('x-ratelimit-limit-tokens')) return;
  for (const [name, value] of Object.entries(knownHeaders(principal, Date.now()))) headers.set(name, value);
});
