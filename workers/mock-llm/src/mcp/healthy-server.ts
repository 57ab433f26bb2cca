/**
 * The healthy MCP server's tools, resources and prompts: an McpServer from the official SDK that
 * answers correctly and deterministically, for the gateway's MCP tests, `npm run dev` and the bench.
 * One instance serves one session (src/mcp/sessions.ts keeps them).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sleep } from '../http';
import { DOCUMENTS, README } from './documents';

/** The header `whoami` reports: lets tests tell tenants' upstream headers apart without echoing credentials. */
const TENANT_HEADER = 'x-mock-tenant';

function text(value: string): { type: 'text'; text: string } {
  return { type: 'text', text: value };
}

function registerTools(server: McpServer): void {
  server.registerTool(
    'echo',
    { description: 'Returns the text it is given.', inputSchema: { text: z.string() } },
    ({ text: value }) => ({ content: [text(value)] }),
  );

  server.registerTool(
    'add',
    {
      description: 'Adds two numbers.',
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
    },
    ({ a, b }) => ({ content: [text(String(a + b))], structuredContent: { sum: a + b } }),
  );

  server.registerTool(
    'count',
    {
      description: 'Counts to n, reporting progress at each step and waiting delay_ms between steps.',
      inputSchema: { n: z.int().min(1).max(20), delay_ms: z.int().min(0).max(1000) },
    },
    async ({ n, delay_ms }, extra) => {
      const progressToken = extra._meta?.progressToken;
      for (let i = 1; i <= n; i++) {
        if (i > 1) await sleep(delay_ms);
        if (progressToken !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: i, total: n },
          });
      }
      return { content: [text(`counted ${n}`)] };
    },
  );

  server.registerTool(
    'read_doc',
    {
      description: `Reads a stored document: ${Object.keys(DOCUMENTS).join(', ')}.`,
      inputSchema: { id: z.string() },
    },
    ({ id }) => {
      const doc = Object.hasOwn(DOCUMENTS, id) ? DOCUMENTS[id] : undefined;
      return doc === undefined
        ? { content: [text(`No document with id "${id}".`)], isError: true }
        : { content: [text(doc)] };
    },
  );

  server.registerTool(
    'whoami',
    { description: `Reports the ${TENANT_HEADER} header this call arrived with.`, inputSchema: {} },
    (_args, extra) => {
      const tenant = extra.requestInfo?.headers[TENANT_HEADER];
      return { content: [text(typeof tenant === 'string' ? tenant : 'none')] };
    },
  );
}

function registerResources(server: McpServer): void {
  server.registerResource(
    'readme',
    'doc://readme',
    { description: 'What this server offers.', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: README }] }),
  );

  server.registerResource(
    'document',
    new ResourceTemplate('doc://{id}', {
      list: () => ({
        resources: Object.keys(DOCUMENTS).map((id) => ({
          uri: `doc://${id}`,
          name: id,
          mimeType: 'text/plain',
        })),
      }),
    }),
    { description: 'A stored document, as read_doc returns it.', mimeType: 'text/plain' },
    (uri, { id }) => {
      const key = String(id);
      const doc = Object.hasOwn(DOCUMENTS, key) ? DOCUMENTS[key] : undefined;
      if (doc === undefined) throw new Error(`No document with id "${key}".`);
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: doc }] };
    },
  );
}

function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'summarize',
    { description: 'Asks for a short summary of a topic.', argsSchema: { topic: z.string() } },
    ({ topic }) => ({
      messages: [
        { role: 'user', content: text(`Summarize what is known about ${topic} in three sentences.`) },
      ],
    }),
  );
}

/** A fresh healthy server, not yet connected to a transport. */
export function createHealthyServer(): McpServer {
  const server = new McpServer({ name: 'edgeway-mock-healthy', version: '1.0.0' });
  registerTools(server);
  registerResources(server);
  registerPrompts(server);
  return server;
}
