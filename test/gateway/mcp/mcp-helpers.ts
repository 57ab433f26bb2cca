/**
 * Test helpers for /mcp: seed a tenant, key and upstream servers straight into D1 (as the admin API stores
 * them, secrets sealed), and connect the official SDK client to the gateway through SELF or the app itself.
 */
import { env, SELF } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { KEY_PREFIX } from '../../../src/core/key-record';
import { sealSlots } from '../../../src/core/mcp-server';
import { forgetMcpServers } from '../../../src/storage/mcp-catalog';
import { randomToken, sha256Hex } from '../../../src/util/crypto';
import { providerKeyHint, sealProviderKey } from '../../../src/util/provider-key-crypto';

export const HEALTHY_URL = 'http://mock-llm.internal/mcp/healthy';
export const FAULTY_URL = 'http://mock-llm.internal/mcp/faulty';
export const MOCK_TOKEN = 'mock-mcp-token';
const SECRET = 'test-provider-keys-secret-0123456789abcdef';

export interface SeedTenant {
  scopes?: Record<string, unknown>;
  guardrails?: Record<string, unknown>;
}

export async function seedTenant(options: SeedTenant = {}): Promise<string> {
  const id = `ten_mcp_${randomToken(6)}`;
  const now = Date.now();
  await env.DB.prepare(
    'INSERT INTO tenants (id, name, guardrails, scopes, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  )
    .bind(id, id, JSON.stringify(options.guardrails ?? {}), JSON.stringify(options.scopes ?? {}), now, now)
    .run();
  return id;
}

export interface SeedMcpKey {
  scopes?: Record<string, unknown>;
  guardrails?: Record<string, unknown>;
  logPayload?: boolean;
}

export async function seedMcpKey(
  tenantId: string,
  options: SeedMcpKey = {},
): Promise<{ id: string; secret: string }> {
  const secret = KEY_PREFIX + randomToken();
  const id = `key_${randomToken(9)}`;
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO api_keys (id, tenant_id, name, key_hash, hint, status, guardrails, scopes, log_payload, created_at, updated_at)
     VALUES (?, ?, 'mcp', ?, ?, 'active', ?, ?, ?, ?, ?)`,
  )
    .bind(
      id,
      tenantId,
      await sha256Hex(secret),
      `${KEY_PREFIX}…${secret.slice(-4)}`,
      JSON.stringify(options.guardrails ?? {}),
      JSON.stringify(options.scopes ?? {}),
      options.logPayload ? 1 : 0,
      now,
      now,
    )
    .run();
  return { id, secret };
}

export interface SeedServer {
  tenantId: string | null;
  namespace: string;
  url: string;
  authType?: 'none' | 'bearer' | 'header' | 'tenant_token';
  authHeader?: string;
  secret?: string;
  timeoutMs?: number;
  enabled?: boolean;
}

export async function seedServer(server: SeedServer): Promise<string> {
  const id = `mcp_${randomToken(9)}`;
  const now = Date.now();
  const authType = server.authType ?? 'none';
  const slots = sealSlots(id, server.tenantId);
  const sealed = server.secret
    ? await sealProviderKey(SECRET, slots.tenant, slots.provider, server.secret)
    : null;
  await env.DB.prepare(
    `INSERT INTO mcp_servers (id, tenant_id, namespace, url, auth_type, auth_header, ciphertext, iv, hint, timeout_ms, enabled, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      id,
      server.tenantId,
      server.namespace,
      server.url,
      authType,
      server.authHeader ?? null,
      sealed?.ciphertext ?? null,
      sealed?.iv ?? null,
      server.secret ? providerKeyHint(server.secret) : null,
      server.timeoutMs ?? 5_000,
      server.enabled === false ? 0 : 1,
      now,
      now,
    )
    .run();
  forgetMcpServers(server.tenantId);
  return id;
}

/** A tenant's own token for a global `tenant_token` server. */
export async function seedToken(serverId: string, tenantId: string, token: string): Promise<void> {
  const slots = sealSlots(serverId, tenantId);
  const sealed = await sealProviderKey(SECRET, slots.tenant, slots.provider, token);
  const now = Date.now();
  await env.DB.prepare(
    'INSERT INTO mcp_server_tokens (server_id, tenant_id, ciphertext, iv, hint, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  )
    .bind(serverId, tenantId, sealed.ciphertext, sealed.iv, providerKeyHint(token), now, now)
    .run();
  forgetMcpServers(tenantId);
}

export type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export const viaSelf: Fetch = (url, init) => SELF.fetch(String(url), init);

/** The official SDK client, connected to the gateway's /mcp with `key`. */
export async function connect(
  key: string,
  options: { fetch?: Fetch; headers?: Record<string, string>; sessionId?: string } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL('http://gw.test/mcp'), {
    fetch: options.fetch ?? viaSelf,
    requestInit: { headers: { authorization: `Bearer ${key}`, ...options.headers } },
    sessionId: options.sessionId,
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 0,
      maxReconnectionDelay: 0,
      reconnectionDelayGrowFactor: 1,
    },
  });
  const client = new Client({ name: 'edgeway-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** A raw JSON-RPC POST to /mcp. */
export function rpc(key: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch('http://gw.test/mcp', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
