// `npm run dev`: local D1 migrations, mock LLM on :8788, gateway on :8787, a dev key printed.
import { join } from 'node:path';
import { ROOT, ensureDevKey, ensureDevMcpServer, ensureDevVars, migrate, startStack } from './stack.mjs';

const port = Number(process.env.PORT ?? 8787);
const mockPort = Number(process.env.MOCK_PORT ?? 8788);

const { adminToken, created } = ensureDevVars();
if (created) console.log('Created .dev.vars with a random ADMIN_TOKEN (git-ignored).');
console.log('Applying D1 migrations (local)…');
migrate();
console.log('Starting mock LLM and gateway…');
const stack = await startStack({ port, mockPort, quiet: process.env.EDGEWAY_DEV_QUIET === '1' });
const dev = await ensureDevKey(stack.url, adminToken, join(ROOT, '.wrangler', 'edgeway-dev-key.json'));
await ensureDevMcpServer(stack.url, adminToken, dev.tenant_id, stack.mockUrl);

console.log(`
Edgeway is running locally (state in .wrangler/):

  Gateway:    ${stack.url}/v1   (OpenAI-compatible; admin API at ${stack.url}/admin)
  Dashboard:  ${stack.url}/dashboard   (sign in with the admin token)
  MCP:        ${stack.url}/mcp   (the mock's tools as mock__echo, mock__add …; docs/mcp.md)
  Mock LLM:   ${stack.mockUrl}/v1   (serves the mock/* models)

  Dev key (${dev.created ? 'new' : 'saved'}):  ${dev.key}
  Admin token:    ${adminToken}   (from .dev.vars)

  curl ${stack.url}/v1/chat/completions \\
    -H "Authorization: Bearer ${dev.key}" -H "Content-Type: application/json" \\
    -d '{"model":"mock/echo","messages":[{"role":"user","content":"Hello, Edgeway"}]}'

Press Ctrl+C to stop.
`);

const shutdown = () => {
  stack.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
