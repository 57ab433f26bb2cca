// Starts the local stack (mock LLM + gateway, each in its own process on 127.0.0.1),
// applies D1 migrations and seeds a dev tenant and key through the admin API.
// Used by `npm run dev` (scripts/dev.mjs) and by the end-to-end tests.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WRANGLER = join(ROOT, 'node_modules', '.bin', 'wrangler');
const SERVE_WORKER = join(ROOT, 'scripts', 'serve-worker.mjs');

/**
 * Reads ADMIN_TOKEN from .dev.vars, creating the file with a random token on first run; also adds a
 * random PROVIDER_KEYS_SECRET (tenants' own provider keys) and ALERT_SIGNING_SECRET (budget alert
 * webhooks) when the file has none.
 */
export function ensureDevVars(file = join(ROOT, '.dev.vars')) {
  let existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const append = (lines) => {
    const prefix = existing && !existing.endsWith('\n') ? `${existing}\n` : existing;
    existing = `${prefix}${lines}`;
    writeFileSync(file, existing, { mode: 0o600 });
  };
  if (!existing) append('# Local secrets for wrangler dev (git-ignored).\n');
  if (!/^PROVIDER_KEYS_SECRET\s*=/m.test(existing))
    append(`PROVIDER_KEYS_SECRET="${randomBytes(32).toString('base64url')}"\n`);
  if (!/^ALERT_SIGNING_SECRET\s*=/m.test(existing))
    append(`ALERT_SIGNING_SECRET="${randomBytes(32).toString('base64url')}"\n`);
  const match = /^ADMIN_TOKEN\s*=\s*"?([^"\n]+)"?\s*$/m.exec(existing);
  if (match) return { adminToken: match[1], created: false };
  const adminToken = `ewadm_${randomBytes(24).toString('base64url')}`;
  append(`ADMIN_TOKEN="${adminToken}"\n`);
  return { adminToken, created: true };
}

export function migrate(persistTo) {
  const args = [
    'd1',
    'migrations',
    'apply',
    'DB',
    '--local',
    ...(persistTo ? ['--persist-to', persistTo] : []),
  ];
  const run = spawnSync(WRANGLER, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  if (run.status !== 0) throw new Error(`D1 migrations failed:\n${run.stdout}\n${run.stderr}`);
}

/** Runs scripts/serve-worker.mjs for one Worker, in its own process group, output kept for errors. */
function startWorker(spec, label, { quiet }) {
  const child = spawn(process.execPath, [SERVE_WORKER], {
    cwd: ROOT,
    env: {
      // Request.cf is Miniflare's fixed placeholder rather than a lookup on Cloudflare's servers, which
      // offline printed a DNS stack trace and, with slow DNS, held the start for its 3 s timeout.
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      ...process.env,
      EDGEWAY_WORKER: JSON.stringify(spec),
      WRANGLER_SEND_METRICS: 'false',
      CI: 'true',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  let output = '';
  const onData = (d) => {
    output += d;
    if (output.length > 200_000) output = output.slice(-100_000);
    if (!quiet) process.stdout.write(`[${label}] ${d}`);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return { child, output: () => output };
}

async function waitFor(url, proc, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${url}: the Worker exited early:\n${proc.output()}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Timed out waiting for ${url}:\n${proc.output()}`);
}

/**
 * Starts mock LLM and gateway, each in its own process (scripts/serve-worker.mjs says how and why
 * not under `wrangler dev`). Returns their URLs and a stop() that ends both.
 * `vars` are passed to the gateway as plain-text bindings (e.g. ADMIN_TOKEN for tests).
 */
export async function startStack({
  port = 8787,
  mockPort = 8788,
  persistTo,
  vars = {},
  quiet = false,
  timeoutMs = 90_000,
} = {}) {
  const ip = '127.0.0.1';
  const mock = startWorker({ kind: 'mock', ip, port: mockPort }, 'mock-llm', { quiet });
  const gatewayVars = { MOCK_LLM_URL: `http://${ip}:${mockPort}/v1`, ...vars };
  const gateway = startWorker({ kind: 'gateway', ip, port, persistTo, vars: gatewayVars }, 'gateway', {
    quiet,
  });
  const stop = () => {
    for (const p of [gateway, mock]) {
      try {
        process.kill(-p.child.pid, 'SIGTERM');
      } catch {
        p.child.kill('SIGTERM');
      }
    }
  };
  try {
    await Promise.all([
      waitFor(`http://${ip}:${mockPort}/v1/models`, mock, timeoutMs),
      waitFor(`http://${ip}:${port}/healthz`, gateway, timeoutMs),
    ]);
  } catch (err) {
    stop();
    throw err;
  }
  return {
    url: `http://${ip}:${port}`,
    mockUrl: `http://${ip}:${mockPort}`,
    pids: { gateway: gateway.child.pid, mock: mock.child.pid },
    stop,
  };
}

async function admin(url, token, method, path, body) {
  const res = await fetch(`${url}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`admin ${method} ${path} → ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/**
 * Makes sure a dev tenant and key exist: reuses the key saved in `keyFile` if the
 * gateway still accepts it, otherwise creates both through the admin API.
 */
export async function ensureDevKey(url, adminToken, keyFile) {
  if (existsSync(keyFile)) {
    const saved = JSON.parse(readFileSync(keyFile, 'utf8'));
    const res = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${saved.key}` } });
    if (res.ok) return { ...saved, created: false };
  }
  const tenant = await admin(url, adminToken, 'POST', '/tenants', { name: 'dev' });
  const key = await admin(url, adminToken, 'POST', '/keys', { tenant_id: tenant.id, name: 'dev key' });
  const saved = { tenant_id: tenant.id, key_id: key.id, key: key.key };
  mkdirSync(dirname(keyFile), { recursive: true });
  writeFileSync(keyFile, JSON.stringify(saved, null, 2), { mode: 0o600 });
  return { ...saved, created: true };
}

/** The mock LLM's MCP server's bearer token (workers/mock-llm/README.md, "MCP servers"). */
const MOCK_MCP_TOKEN = 'mock-mcp-token';

/**
 * Makes sure the dev tenant reaches the mock's MCP server through /mcp, as namespace `mock` (docs/mcp.md,
 * "Trying it locally"): registers it, or points it at the mock's current address. Returns its namespace.
 */
export async function ensureDevMcpServer(url, adminToken, tenantId, mockUrl) {
  const target = `${mockUrl}/mcp/healthy`;
  const listed = await admin(url, adminToken, 'GET', `/tenants/${tenantId}/mcp-servers`);
  const existing = listed.data.find((s) => s.namespace === 'mock' && s.scope === 'tenant');
  if (!existing) {
    await admin(url, adminToken, 'POST', `/tenants/${tenantId}/mcp-servers`, {
      namespace: 'mock',
      url: target,
      description: "The mock LLM's MCP server (npm run dev)",
      auth: { type: 'bearer', secret: MOCK_MCP_TOKEN },
    });
  } else if (existing.url !== target) {
    await admin(url, adminToken, 'PATCH', `/tenants/${tenantId}/mcp-servers/${existing.id}`, { url: target });
  }
  return 'mock';
}
