/**
 * Admin input at the boundary: bodies (JSON, ≤ 64 KiB, read by the gateway's
 * own bounded reader) and query strings, each through its zod schema. Failures
 * are 400s naming the offending field, in the OpenAI error envelope.
 */
import type { Context } from 'hono';
import type * as z from 'zod';
import { readJsonBody } from '../api/read-body';
import type { AppEnv } from '../context';
import { badRequest } from '../core/errors';

export const MAX_ADMIN_BODY_BYTES = 64 * 1024;

/** `optional`: a request with no body at all is read as `{}` (e.g. POST …/rotate). */
export async function readBody<S extends z.ZodType>(
  c: Context<AppEnv>,
  schema: S,
  optional = false,
): Promise<z.output<S>> {
  const empty = c.req.header('content-length') === '0' || c.req.raw.body === null;
  const raw = optional && empty ? {} : await readJsonBody(c.req.raw, MAX_ADMIN_BODY_BYTES);
  return check(schema, raw, 'body');
}

export function readQuery<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.output<S> {
  return check(schema, c.req.query(), 'query');
}

function check<S extends z.ZodType>(schema: S, raw: unknown, where: 'body' | 'query'): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 3);
  const first = issues[0];
  const param = first ? paramOf(first) : null;
  const detail = issues.map((i) => `${paramOf(i) ?? where}: ${i.message}`).join('; ');
  throw badRequest(`Invalid ${where}. ${detail}`, param, 'invalid_request');
}

function paramOf(issue: z.core.$ZodIssue): string | null {
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  return path.length ? path.map(String).join('.') : null;
}
