/**
 * The dashboard's only way to the data: the admin API, called in-process as
 * the signed-in admin. Each call is a real Request to /admin/…, registered
 * with that admin (src/admin/access/in-process.ts actAs; it carries no token) and
 * handed to the gateway app's own fetch, so it passes the same guard, role
 * and scope checks, zod validation, audit trail and error handler as the
 * CLI's calls.
 * Answers are parsed with the admin API's own response schemas. A 4xx/5xx is
 * an expected outcome (a value carrying the API's message and param) for the
 * page to show in words; an answer that fails its schema is exceptional.
 */
import type { ExecutionContext } from 'hono';
import type * as z from 'zod';
import { actAs } from '../admin/access/in-process';
import { ErrorEnvelope } from '../admin/schemas';
import type { AdminPrincipal } from '../core/admin-principal';
import type { Bindings } from '../env';

export type AdminFetch = (
  request: Request,
  env: Bindings,
  ctx: ExecutionContext,
) => Response | Promise<Response>;

export interface ApiFailure {
  ok: false;
  status: number;
  message: string;
  /** The offending field, as the API names it (`name`, `limits.rpm` …). */
  param: string | null;
}
export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

/** The first refusal among several calls a page made (null results are calls it did not need). */
export function firstFailure(...results: (ApiResult<unknown> | null)[]): ApiFailure | null {
  for (const r of results) if (r && !r.ok) return r;
  return null;
}

type Query = Record<string, string | number | undefined>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export class AdminApi {
  constructor(
    private readonly fetcher: AdminFetch,
    private readonly origin: string,
    private readonly env: Bindings,
    private readonly ctx: ExecutionContext,
    private readonly who: AdminPrincipal,
  ) {}

  get<S extends z.ZodType>(path: string, schema: S, query: Query = {}): Promise<ApiResult<z.output<S>>> {
    return this.call('GET', path, schema, query);
  }

  send<S extends z.ZodType>(
    method: Exclude<Method, 'GET'>,
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<ApiResult<z.output<S>>> {
    return this.call(method, path, schema, {}, body);
  }

  /**
   * A GET whose answer is not JSON (the log export): the response itself on success, its body left
   * unread so the caller can hand it on as a stream; a refusal as usual.
   */
  async stream(
    path: string,
    query: Query = {},
    accept = 'application/x-ndjson',
  ): Promise<ApiResult<Response>> {
    const res = await this.fetch('GET', path, query, accept);
    return res.ok ? { ok: true, data: res } : failureOf(res, await res.json().catch(() => null));
  }

  private async call<S extends z.ZodType>(
    method: Method,
    path: string,
    schema: S,
    query: Query,
    body?: unknown,
  ): Promise<ApiResult<z.output<S>>> {
    const res = await this.fetch(method, path, query, 'application/json', body);
    const json: unknown = await res.json().catch(() => null);
    if (!res.ok) return failureOf(res, json);
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new Error(
        `admin ${method} ${path}: unexpected response shape: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    return { ok: true, data: parsed.data };
  }

  /** One in-process call to /admin{path}, registered as the signed-in admin's (no token is sent). */
  private fetch(
    method: Method,
    path: string,
    query: Query,
    accept: string,
    body?: unknown,
  ): Promise<Response> {
    const url = new URL(`/admin${path}`, this.origin);
    for (const [k, v] of Object.entries(query))
      if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    const headers = new Headers({ accept });
    if (body !== undefined) headers.set('content-type', 'application/json');
    const request = new Request(url, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    return Promise.resolve(this.fetcher(actAs(request, this.who), this.env, this.ctx));
  }
}

/** A 4xx/5xx in words: the API's own envelope when it sent one. */
function failureOf(res: Response, json: unknown): ApiFailure {
  const envelope = ErrorEnvelope.safeParse(json);
  return envelope.success
    ? {
        ok: false,
        status: res.status,
        message: envelope.data.error.message,
        param: envelope.data.error.param,
      }
    : { ok: false, status: res.status, message: `The admin API answered HTTP ${res.status}.`, param: null };
}
