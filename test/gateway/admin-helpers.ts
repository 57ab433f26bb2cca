/** Test helpers for the admin API: authenticated calls and the common setup steps. */
import { SELF } from 'cloudflare:test';
import { expect } from 'vitest';
import { ApiKey, KeyWithSecret, Tenant } from '../../src/admin/schemas';

/** Matches ADMIN_TOKEN in vitest.config.ts's miniflare bindings. */
export const ADMIN_TOKEN = 'test-admin-token';

export interface AdminResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function admin(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = ADMIN_TOKEN,
): Promise<AdminResponse> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await SELF.fetch(`http://gw.test/admin${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // non-JSON bodies are asserted through `text`
  }
  return { status: res.status, headers: res.headers, text, json };
}

export async function createTenant(name = 'acme', extra: Record<string, unknown> = {}): Promise<Tenant> {
  const res = await admin('POST', '/tenants', { name, ...extra });
  expect(res.status).toBe(201);
  return Tenant.parse(res.json);
}

export async function createKey(
  tenantId: string,
  extra: Record<string, unknown> = {},
): Promise<KeyWithSecret> {
  const res = await admin('POST', '/keys', { tenant_id: tenantId, ...extra });
  expect(res.status).toBe(201);
  return KeyWithSecret.parse(res.json);
}

/** Parses a response body as an API key, checking its shape against the schema. */
export const asKey = (res: AdminResponse): ApiKey => ApiKey.parse(res.json);
export const asTenant = (res: AdminResponse): Tenant => Tenant.parse(res.json);

export function v1(path: string, key: string, body?: unknown): Promise<Response> {
  return SELF.fetch(`http://gw.test/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
