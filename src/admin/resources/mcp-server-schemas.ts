/**
 * The /admin/mcp-servers and /admin/tenants/{id}/mcp-servers request shapes (zod; /admin/openapi.json
 * is generated from them). How an `auth` fits the server (a secret where one is needed, a header where
 * one is named) is checked after this, by mcp-server-auth.ts, since a PATCH may keep the stored secret.
 */
import * as z from 'zod';
import {
  DEFAULT_MCP_TIMEOUT_MS,
  MAX_MCP_TIMEOUT_MS,
  McpAuthType,
  McpNamespace,
  McpTransport,
} from '../../core/mcp-server';
import { McpServer, McpServerTokenInfo } from '../../storage/mcp-servers';
import { listOf } from '../schemas';

const nonEmpty = (o: object) => Object.keys(o).length > 0;

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** http(s) only, and no credentials in it: a secret goes in `auth`, where it is sealed. */
export const McpUrl = z
  .string()
  .trim()
  .max(2048)
  .superRefine((text, ctx) => {
    const url = parseUrl(text);
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      ctx.addIssue({ code: 'custom', message: 'an http(s) URL' });
    } else if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'no user or password in the URL: put a secret in auth' });
    } else if (url.hash) {
      ctx.addIssue({ code: 'custom', message: 'no #fragment in the URL' });
    }
  })
  .describe("The server's MCP endpoint, http(s), e.g. https://mcp.example.com/mcp.");

/** Headers the gateway sets itself on the upstream request: a secret may not be sent in one of them. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'accept',
  'connection',
  'transfer-encoding',
  'te',
  'upgrade',
  'keep-alive',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

export const McpHeaderName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'an HTTP header name')
  .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), 'a header the gateway sets itself');

/** A bearer token or header value: printable ASCII, spaces allowed inside. */
export const McpSecret = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  .regex(/^[\x20-\x7e]+$/, 'printable ASCII');

export const McpAuthInput = z
  .strictObject({
    type: McpAuthType,
    header: McpHeaderName.nullable()
      .optional()
      .describe(
        "The header the secret is sent in: required for 'header', optional for 'tenant_token' (else a bearer).",
      ),
    secret: McpSecret.optional().describe(
      "The bearer token or header value ('bearer', 'header'): required on create; on PATCH, absent keeps the stored one. Stored encrypted, never returned.",
    ),
  })
  .describe(
    'How the gateway authenticates to the server: none; bearer (Authorization: Bearer <secret>); header (<header>: <secret>); tenant_token (a global server where each tenant stores its own token).',
  );
export type McpAuthInput = z.infer<typeof McpAuthInput>;

const Description = z.string().trim().max(500);
const TimeoutMs = z
  .number()
  .int()
  .min(1)
  .max(MAX_MCP_TIMEOUT_MS)
  .describe(`Longest wait for one upstream answer, ms (1–${MAX_MCP_TIMEOUT_MS}).`);

export const McpServerCreate = z.strictObject({
  namespace: McpNamespace.describe(
    "Its tools are listed as <namespace>__<tool>: 1–32 of a-z, 0-9 and -, starting with a letter; unique in every tenant's view.",
  ),
  url: McpUrl,
  transport: McpTransport.default('streamable-http'),
  description: Description.default(''),
  auth: McpAuthInput.default({ type: 'none' }),
  timeout_ms: TimeoutMs.default(DEFAULT_MCP_TIMEOUT_MS),
  enabled: z.boolean().default(true),
});
export type McpServerCreate = z.infer<typeof McpServerCreate>;

export const McpServerUpdate = z
  .strictObject({
    namespace: McpNamespace.optional(),
    url: McpUrl.optional(),
    transport: McpTransport.optional(),
    description: Description.optional(),
    auth: McpAuthInput.optional().describe('Replaced whole, but an absent secret keeps the stored one.'),
    timeout_ms: TimeoutMs.optional(),
    enabled: z.boolean().optional(),
  })
  .refine(nonEmpty, 'send at least one field to change');
export type McpServerUpdate = z.infer<typeof McpServerUpdate>;

export const McpTokenPut = z.strictObject({
  token: McpSecret.describe("The tenant's own token for this server; stored encrypted, never returned."),
});

export const McpServerList = listOf(McpServer);
export { McpServer, McpServerTokenInfo };
