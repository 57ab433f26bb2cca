/**
 * Guards /admin after authentication: may this admin call this operation, on
 * this tenant? The request is matched to its documented operation (the
 * OpenAPI list every router exports), whose `access` the shared policy judges
 * (src/core/admin-principal.ts). A tenant_admin's tenant is located as the
 * operation declares: a path or query parameter, the body, or the tenant of
 * the key or logged request the path names. A resource that does not exist is
 * refused like another tenant's, so a refusal says nothing about existence.
 * A route that matches no documented operation is open to owners only.
 *
 * It then gives the request its audited database handle (audited-db.ts) and
 * the admin stores built on it, so every write is recorded as this admin's.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { readJsonBody } from '../../api/read-body';
import type { AppEnv } from '../../context';
import { type Access, type AdminPrincipal, needsTenant, permits } from '../../core/admin-principal';
import { GatewayError } from '../../core/errors';
import { D1KeyAdminStore } from '../../storage/key-admin-store';
import { D1TenantStore } from '../../storage/tenant-store';
import { LogReader } from '../../logs/read/logs';
import { auditedDatabase } from './audited-db';
import type { Operation } from '../operation';
import { MAX_ADMIN_BODY_BYTES } from '../validate';

interface Matcher {
  op: Operation;
  strict: RegExp;
  /** The same with its last parameter allowed to span slashes (a model id such as openai/gpt-4o). */
  greedy: RegExp;
}

function compile(op: Operation): Matcher {
  const names: string[] = [];
  const parts = op.path.split(/(\{\w+\})/);
  const last = parts.filter((p) => p.startsWith('{')).length - 1;
  const build = (greedyLast: boolean) => {
    let index = -1;
    const body = parts
      .map((p) => {
        if (!p.startsWith('{')) return p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        index += 1;
        if (!greedyLast) names.push(p.slice(1, -1));
        return greedyLast && index === last ? '([^?#]+)' : '([^/]+)';
      })
      .join('');
    return new RegExp(`^${body}/?$`);
  };
  return { op, strict: build(false), greedy: build(true) };
}

export interface MatchedOperation {
  op: Operation;
  params: Record<string, string>;
}

/** Matches method and path to a documented operation; static segments win over parameters. */
export function operationMatcher(operations: readonly Operation[]) {
  const matchers = [...operations]
    .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))
    .map(compile);
  const paramNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map(([, n]) => n ?? '');
  return (method: string, path: string): MatchedOperation | null => {
    const m = method.toLowerCase();
    for (const pass of ['strict', 'greedy'] as const) {
      for (const matcher of matchers) {
        if (matcher.op.method !== m) continue;
        const hit = matcher[pass].exec(path);
        if (!hit) continue;
        const names = paramNames(matcher.op.path);
        const params: Record<string, string> = {};
        names.forEach((name, i) => {
          params[name] = safeDecode(hit[i + 1] ?? '');
        });
        return { op: matcher.op, params };
      }
    }
    return null;
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The operation's name as the audit log records it, e.g. `PATCH /admin/keys/{id}`. */
export const operationName = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;

async function locateTenant(
  c: Context<AppEnv>,
  access: Access,
  params: Record<string, string>,
): Promise<string | null> {
  switch (access.tenant) {
    case 'path':
      return params.id ?? null;
    case 'query':
      return new URL(c.req.url).searchParams.get('tenant_id');
    case 'body': {
      const body = await readJsonBody(c.req.raw.clone(), MAX_ADMIN_BODY_BYTES).catch(() => null);
      const id = body && typeof body === 'object' ? (body as { tenant_id?: unknown }).tenant_id : null;
      return typeof id === 'string' ? id : null;
    }
    case 'key':
      return params.id ? ((await c.var.deps.apiKeys.get(params.id))?.tenant_id ?? null) : null;
    case 'log': {
      // The index knows the tenant of a recent request; an archived one is looked up under the tenant_id the
      // call names (src/logs/read/lookup.ts), so that is the tenant it touches.
      const row = params.request_id ? await new LogReader(c.env.DB).get(params.request_id) : null;
      return row ? row.tenant_id : new URL(c.req.url).searchParams.get('tenant_id');
    }
    default:
      return null;
  }
}

function forbidden(
  who: AdminPrincipal,
  what: string,
  tenantId: string | null,
  scoped: boolean,
): GatewayError {
  const reason = scoped
    ? tenantId
      ? `tenant '${tenantId}' is outside its scope`
      : 'the call names no tenant in its scope (pass tenant_id)'
    : `its role (${who.role}) does not allow it`;
  return new GatewayError(403, `The admin '${who.name}' may not call ${what}: ${reason}.`, {
    code: 'forbidden',
    type: 'permission_error',
  });
}

export function authorize(operations: readonly Operation[], now: () => number = Date.now) {
  const match = operationMatcher(operations);
  return createMiddleware<AppEnv>(async function authorize(c, next) {
    const who = c.var.adminPrincipal;
    const found = match(c.req.method, c.req.path);
    const what = found ? operationName(found.op) : `${c.req.method} ${c.req.path}`;
    if (!found) {
      if (who.role !== 'owner') throw forbidden(who, what, null, false);
    } else {
      const { access } = found.op;
      const scoped = needsTenant(who, access);
      const tenantId = scoped ? await locateTenant(c, access, found.params) : null;
      if (!permits(who, access, tenantId)) throw forbidden(who, what, tenantId, scoped);
    }
    const db = auditedDatabase(c.env.DB, { who, operation: what, now: now() });
    c.set('adminDb', db);
    c.set('deps', { ...c.var.deps, tenants: new D1TenantStore(db), apiKeys: new D1KeyAdminStore(db) });
    await next();
  });
}
