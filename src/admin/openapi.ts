/**
 * GET /admin/openapi.json: an OpenAPI 3.1 document generated from the same zod
 * schemas the routers validate with (zod 4's JSON Schema output is draft
 * 2020-12, which OpenAPI 3.1 uses as is). Each router exports its operations
 * (path, summary, schemas) next to its handlers; OPERATIONS joins them, and a
 * test checks it lists exactly the /admin routes the app serves.
 * The document is public: it describes open-source code and holds no data.
 */
import * as z from 'zod';
import { RouteStep } from '../core/route-spec';
import { adminOperations } from './access/admins';
import { alertOperations } from './resources/alerts';
import { auditOperations } from './access/audit';
import { endUserOperations } from './resources/end-users';
import { keyOperations } from './resources/keys';
import { limitsOperations } from './resources/limits';
import { logExportOperations } from './resources/log-export';
import { logOperations } from './resources/logs';
import { mcpServerOperations } from './resources/mcp-servers';
import { metricsOperations } from './resources/metrics';
import { providerKeyOperations } from './resources/provider-keys';
import { providerOperations } from './resources/providers';
import { routeOperations } from './resources/routes';
import { ErrorEnvelope } from './schemas';
import { tenantOperations } from './resources/tenants';
import { usageOperations } from './resources/usage';
import { analyticsOperations } from './resources/analytics';
import type { NamedSchema, Operation } from './operation';

/** Every documented admin operation; a router added under /admin adds its list here. */
export const OPERATIONS: readonly Operation[] = [
  ...tenantOperations,
  ...endUserOperations,
  ...keyOperations,
  ...providerKeyOperations,
  ...mcpServerOperations,
  ...providerOperations,
  ...routeOperations,
  ...limitsOperations,
  ...alertOperations,
  ...logOperations,
  ...logExportOperations,
  ...usageOperations,
  ...analyticsOperations,
  ...metricsOperations,
  ...adminOperations,
  ...auditOperations,
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Schemas that contain themselves (a route's nested groups) are components of
 * their own, so each recursion is a $ref; requests and answers differ (defaults), hence two names.
 */
const RECURSIVE = [{ schema: RouteStep, input: 'RouteStepInput', output: 'RouteStep' }] as const;

/** Request shapes are described as clients send them, responses as the API returns them. */
function components(named: NamedSchema[], io: 'input' | 'output'): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  const seen = new Map<string, z.ZodType>();
  for (const { id, schema } of named) {
    if (seen.get(id) === schema) continue;
    if (seen.has(id)) throw new Error(`Two different schemas are documented as '${id}'.`);
    seen.set(id, schema);
    registry.add(schema, { id });
  }
  for (const r of RECURSIVE) registry.add(r.schema, { id: r[io] });
  const out = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}` }).schemas;
  return Object.fromEntries(Object.entries(out).map(([id, { $schema: _s, $id: _i, ...rest }]) => [id, rest]));
}

function queryParameters(query: z.ZodObject): unknown[] {
  const json = z.toJSONSchema(query, { io: 'input' });
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, schema]) => {
    const description =
      typeof schema === 'object' && 'description' in schema ? schema.description : undefined;
    return {
      name,
      in: 'query',
      required: required.has(name),
      schema,
      ...(description ? { description } : {}),
    };
  });
}

function successes(op: Operation): Record<string, unknown> {
  if (op.streams) {
    const { mediaType, description } = op.streams;
    return { [op.status]: { description, content: { [mediaType]: { schema: { type: 'string' } } } } };
  }
  if (!op.response) return { [op.status]: { description: 'No content' } };
  const answer = { content: { 'application/json': { schema: ref(op.response.id) } } };
  return {
    [op.status]: { description: op.mayCreate ? 'Replaced' : 'OK', ...answer },
    ...(op.mayCreate ? { 201: { description: 'Created', ...answer } } : {}),
  };
}

function operation(op: Operation): unknown {
  const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const errors = {
    description: 'Error, in the OpenAI envelope',
    content: { 'application/json': { schema: ref('Error') } },
  };
  return {
    summary: op.summary,
    parameters: [...pathParams, ...(op.query ? queryParameters(op.query) : [])],
    ...(op.body
      ? {
          requestBody: {
            required: !op.optionalBody,
            content: { 'application/json': { schema: ref(op.body.id) } },
          },
        }
      : {}),
    responses: { ...successes(op), default: errors },
  };
}

let cached: unknown;

export function openApiDocument(): unknown {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path]![op.method] = operation(op);
  }
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Edgeway admin API',
      version: '1',
      description:
        "Tenants, gateway keys, tenants' own provider keys, named routes and MCP servers. Times are epoch milliseconds.",
    },
    servers: [{ url: '/' }],
    security: [{ adminToken: [] }, { cloudflareAccess: [] }],
    paths,
    components: {
      securitySchemes: {
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            "A named admin's token (ewadm_…), the ADMIN_TOKEN secret (break-glass owner), or, where single sign-on is configured, the OpenID Connect provider's ID token (docs/sso.md).",
        },
        cloudflareAccess: {
          type: 'apiKey',
          in: 'header',
          name: 'Cf-Access-Jwt-Assertion',
          description:
            'The signed assertion Cloudflare Access adds to the requests it lets through, where CF_ACCESS_TEAM_DOMAIN and CF_ACCESS_AUD are set (docs/sso.md).',
        },
      },
      schemas: {
        ...components(
          OPERATIONS.flatMap((op) => (op.body ? [op.body] : [])),
          'input',
        ),
        ...components(
          [
            { id: 'Error', schema: ErrorEnvelope },
            ...OPERATIONS.flatMap((op) => (op.response ? [op.response] : [])),
          ],
          'output',
        ),
      },
    },
  };
  return cached;
}
