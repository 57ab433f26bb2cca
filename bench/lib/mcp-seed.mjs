/**
 * Provisioning for the MCP workload (bench/lib/workloads/mcp.mjs), against a gateway started by
 * bench/lib/stack.mjs: the mock's healthy MCP server registered as a global upstream, written straight
 * into the gateway's D1 as the admin API stores it (the bearer sealed with the gateway's own
 * PROVIDER_KEYS_SECRET by src/util/provider-key-crypto.ts under src/core/mcp-server.ts's sealSlots), and
 * keys made through the admin API. Where the admin API does not take a key's `mcp` scope (tool-call
 * limits), it is set in D1 before the key's first request: the key store reads D1 on a key's first
 * lookup, so nothing cached can hold the scope-less record.
 */
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { loadBundle } from '../guardrails-micro.mjs';

/** The credential the mock's /mcp/healthy wants (workers/mock-llm/src/mcp/healthy.ts). */
export const MOCK_MCP_TOKEN = 'mock-mcp-token';
/** The namespace the bench registers the mock under: its `echo` is `bench__echo` through the gateway. */
export const BENCH_NAMESPACE = 'bench';

/** A fresh PROVIDER_KEYS_SECRET for the bench gateway (the gateway refuses one under 32 characters). */
export function benchKeysSecret() {
  return randomBytes(32).toString('base64url');
}

async function admin(url, token, path, body, method = 'POST') {
  const res = await fetch(`${url}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`admin ${method} ${path} → ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/**
 * Registers `url` as a global MCP server (every tenant's) with a bearer secret, as POST /admin/mcp-servers
 * would store it. Returns the server's id.
 */
export async function seedGlobalMcpServer(
  gateway,
  { url, secret, keysSecret, namespace = BENCH_NAMESPACE, timeoutMs = 30_000 },
) {
  const { sealProviderKey, providerKeyHint } = await loadBundle('src/util/provider-key-crypto.ts');
  const { sealSlots } = await loadBundle('src/core/mcp-server.ts');
  const id = `mcp_bench_${randomBytes(6).toString('hex')}`;
  const slots = sealSlots(id, null);
  const sealed = await sealProviderKey(keysSecret, slots.tenant, slots.provider, secret);
  const now = Date.now();
  const db = await gateway.mf.getD1Database('DB');
  await db
    .prepare(
      `INSERT INTO mcp_servers (id, tenant_id, namespace, url, transport, description, auth_type, auth_header,
         ciphertext, iv, hint, timeout_ms, enabled, created_at, updated_at)
       VALUES (?, NULL, ?, ?, 'streamable-http', 'bench: the mock''s healthy server', 'bearer', NULL, ?, ?, ?, ?, 1, ?, ?)`,
    )
    .bind(id, namespace, url, sealed.ciphertext, sealed.iv, providerKeyHint(secret), timeoutMs, now, now)
    .run();
  return id;
}

/**
 * A tenant and a key per scenario, through the admin API, `mcp` (the key's MCP scope: allow-list and
 * tool-call limits) in the key's body. A gateway whose admin API does not take `mcp` (older trees, for
 * A/B runs) gets the key without it and the scope written into the key's `scopes` in D1, before the
 * key's first request. Returns { scenario: { id, tenantId, key, mcpVia: 'admin' | 'd1' | null } }.
 */
export async function seedMcpKeys(gateway, adminToken, scenarios) {
  const out = {};
  for (const [name, { mcp, ...settings }] of Object.entries(scenarios)) {
    const tenant = await admin(gateway.url, adminToken, '/tenants', { name: `bench mcp ${name}` });
    const body = { tenant_id: tenant.id, name: `bench mcp ${name}`, ...settings };
    let key = null;
    let mcpVia = null;
    if (mcp) {
      key = await admin(gateway.url, adminToken, '/keys', { ...body, mcp }).catch((err) => {
        if (!/→ 400/.test(err.message)) throw err;
        return null;
      });
      if (key && !isDeepStrictEqual(key.mcp, mcp))
        throw new Error(`the admin API answered key ${key.id} with mcp ${JSON.stringify(key.mcp)}`);
      mcpVia = key ? 'admin' : 'd1';
    }
    key ??= await admin(gateway.url, adminToken, '/keys', body);
    if (mcpVia === 'd1') await setKeyMcpInD1(gateway, key.id, mcp);
    out[name] = { id: key.id, tenantId: tenant.id, key: key.key, mcpVia };
  }
  return out;
}

async function setKeyMcpInD1(gateway, keyId, mcp) {
  const db = await gateway.mf.getD1Database('DB');
  await db
    .prepare("UPDATE api_keys SET scopes = json_set(coalesce(scopes, '{}'), '$.mcp', json(?)) WHERE id = ?")
    .bind(JSON.stringify(mcp), keyId)
    .run();
  const row = await db.prepare('SELECT scopes FROM api_keys WHERE id = ?').bind(keyId).first();
  if (JSON.stringify(JSON.parse(row?.scopes ?? '{}').mcp) !== JSON.stringify(mcp))
    throw new Error(`could not set the mcp scope of key ${keyId}: ${row?.scopes}`);
}

/**
 * How many tool calls the Limiter of `tenantId` has counted today for the key's tool-call scope
 * (`tools:key:<id>`, src/mcp/limits.ts), read from the object through Miniflare; null when it cannot be read.
 */
export async function toolCallsCounted(gateway, tenantId, keyId) {
  try {
    const ns = await gateway.mf.getDurableObjectNamespace('LIMITER');
    const stub = ns.get(ns.idFromName(tenantId));
    const dump = await stub.dumpScope(`tools:key:${keyId}`);
    return dump;
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}
