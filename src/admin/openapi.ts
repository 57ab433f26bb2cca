/**
 * GET /admin/openapi.json: an OpenAPI 3.1 document generated from the same zod
 * schemas the routers validate with (zod 4's JSON Schema output is draft
 * 2020-12, which OpenAPI 3.1 uses as is). The operation table below is the one
 * hand-written part; a test checks it lists exactly the routes the app serves.
 * The document is public: it describes open-source code and holds no data.
 */
import { z } from 'zod';
import * as S from './schemas';

type Schema = z.ZodType;

/** Request shapes are described as clients send them, responses as the API returns them. */
const requestSchemas = { TenantCreate: S.TenantCreate, TenantUpdate: S.TenantUpdate, KeyCreate: S.KeyCreate, KeyUpdate: S.KeyUpdate, KeyRotate: S.KeyRotate };
const responseSchemas = { Tenant: S.Tenant, TenantList: S.TenantList, ApiKey: S.ApiKey, ApiKeyWithSecret: S.KeyWithSecret, KeyList: S.KeyList, Error: S.ErrorEnvelope };

interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  summary: string;
  query?: z.ZodObject;
  body?: keyof typeof requestSchemas;
  optionalBody?: boolean;
  status: 200 | 201;
  response: keyof typeof responseSchemas;
}

export const OPERATIONS: readonly Operation[] = [
  { method: 'post', path: '/admin/tenants', summary: 'Create a tenant', body: 'TenantCreate', status: 201, response: 'Tenant' },
  { method: 'get', path: '/admin/tenants', summary: 'List tenants, newest first', query: S.TenantListQuery, status: 200, response: 'TenantList' },
  { method: 'get', path: '/admin/tenants/{id}', summary: 'Get a tenant', status: 200, response: 'Tenant' },
  { method: 'patch', path: '/admin/tenants/{id}', summary: 'Update a tenant (each given field is replaced whole)', body: 'TenantUpdate', status: 200, response: 'Tenant' },
  { method: 'post', path: '/admin/tenants/{id}/disable', summary: "Disable a tenant: all its keys are refused", status: 200, response: 'Tenant' },
  { method: 'post', path: '/admin/tenants/{id}/enable', summary: 'Enable a disabled tenant', status: 200, response: 'Tenant' },
  { method: 'post', path: '/admin/keys', summary: 'Create a key; the secret is in this response only', body: 'KeyCreate', status: 201, response: 'ApiKeyWithSecret' },
  { method: 'get', path: '/admin/keys', summary: "List a tenant's keys, newest first (never secrets)", query: S.KeyListQuery, status: 200, response: 'KeyList' },
  { method: 'get', path: '/admin/keys/{id}', summary: 'Get a key', query: S.KeyScopeQuery, status: 200, response: 'ApiKey' },
  { method: 'patch', path: '/admin/keys/{id}', summary: 'Update a key (each given field is replaced whole)', query: S.KeyScopeQuery, body: 'KeyUpdate', status: 200, response: 'ApiKey' },
  { method: 'post', path: '/admin/keys/{id}/rotate', summary: 'Issue a new secret; the old one works for grace_seconds', query: S.KeyScopeQuery, body: 'KeyRotate', optionalBody: true, status: 200, response: 'ApiKeyWithSecret' },
  { method: 'delete', path: '/admin/keys/{id}', summary: 'Revoke a key (idempotent)', query: S.KeyScopeQuery, status: 200, response: 'ApiKey' },
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function components(schemas: Record<string, Schema>, io: 'input' | 'output'): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}` }).schemas;
  return Object.fromEntries(Object.entries(out).map(([id, { $schema: _s, $id: _i, ...rest }]) => [id, rest]));
}

function queryParameters(query: z.ZodObject): unknown[] {
  const json = z.toJSONSchema(query, { io: 'input' });
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, schema]) => {
    const description = typeof schema === 'object' && 'description' in schema ? schema.description : undefined;
    return { name, in: 'query', required: required.has(name), schema, ...(description ? { description } : {}) };
  });
}

function operation(op: Operation): unknown {
  const idParam = op.path.includes('{id}') ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] : [];
  const errors = { description: 'Error, in the OpenAI envelope', content: { 'application/json': { schema: ref('Error') } } };
  return {
    summary: op.summary,
    parameters: [...idParam, ...(op.query ? queryParameters(op.query) : [])],
    ...(op.body ? { requestBody: { required: !op.optionalBody, content: { 'application/json': { schema: ref(op.body) } } } } : {}),
    responses: {
      [op.status]: { description: 'OK', content: { 'application/json': { schema: ref(op.response) } } },
      default: errors,
    },
  };
}

let cached: unknown;

export function openApiDocument(): unknown {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operation(op);
  cached = {
    openapi: '3.1.0',
    info: { title: 'Edgeway admin API', version: '1', description: 'Tenants and gateway keys. Times are epoch milliseconds.' },
    servers: [{ url: '/' }],
    security: [{ adminToken: [] }],
    paths,
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN secret.' } },
      schemas: { ...components(requestSchemas, 'input'), ...components(responseSchemas, 'output') },
    },
  };
  return cached;
}
