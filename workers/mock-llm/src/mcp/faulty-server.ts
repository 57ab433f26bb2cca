/**
 * The faulty MCP server's tools: each one fails in one way a real tool server does. Built on the SDK's
 * low-level `Server`, not `McpServer`, because McpServer turns every error a tool handler throws into an
 * `isError` result (all but a URL-elicitation error) and owns `tools/list`: only a handler of our own
 * can answer a real JSON-RPC error for `fail` and for the `list_error` fault.
 *
 * `malformed` and `disconnect` break the HTTP answer itself, so src/mcp/faulty.ts answers them before
 * the SDK sees the request; they are listed here so clients can find and call them.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { sleep } from '../http';

/** The longest wait `slow` and the `slow_list` fault accept, so a mistake cannot hold a request for ever. */
export const MAX_DELAY_MS = 60_000;

/** How the whole server misbehaves, from the URL's query string (see src/mcp/faulty.ts). */
export interface ListFaults {
  /** Milliseconds `tools/list` waits before answering. */
  readonly listDelayMs: number;
  /** `tools/list` answers a JSON-RPC error. */
  readonly listError: boolean;
}

const NO_ARGS = { type: 'object', properties: {} } as const;

export const FAULTY_TOOLS: readonly Tool[] = [
  { name: 'ok', description: 'Answers "fine".', inputSchema: NO_ARGS },
  {
    name: 'slow',
    description: `Waits ms milliseconds (at most ${MAX_DELAY_MS}), then answers.`,
    inputSchema: {
      type: 'object',
      properties: { ms: { type: 'integer', minimum: 0, maximum: MAX_DELAY_MS } },
      required: ['ms'],
    },
  },
  { name: 'fail', description: 'Answers a JSON-RPC error (-32603).', inputSchema: NO_ARGS },
  { name: 'tool_error', description: 'Answers a tool result with isError: true.', inputSchema: NO_ARGS },
  {
    name: 'malformed',
    description: 'Answers HTTP 200 with a body that is not JSON-RPC.',
    inputSchema: NO_ARGS,
  },
  {
    name: 'disconnect',
    description: 'Opens an event stream and drops it before any response.',
    inputSchema: NO_ARGS,
  },
];

const SlowArgs = z.object({ ms: z.int().min(0).max(MAX_DELAY_MS) });

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

async function callTool(name: string, args: unknown): Promise<CallToolResult> {
  switch (name) {
    case 'ok':
      return text('fine');
    case 'slow': {
      const parsed = SlowArgs.safeParse(args ?? {});
      if (!parsed.success)
        throw new McpError(ErrorCode.InvalidParams, `slow: ms must be an integer from 0 to ${MAX_DELAY_MS}`);
      await sleep(parsed.data.ms);
      return text(`slept ${parsed.data.ms} ms`);
    }
    case 'fail':
      throw new McpError(ErrorCode.InternalError, 'mock tool failure (fail)', { fault: 'fail' });
    case 'tool_error':
      return { content: [{ type: 'text', text: 'mock tool error (tool_error)' }], isError: true };
    case 'malformed':
    case 'disconnect':
      // Only reached inside a JSON-RPC batch: the HTTP-level fault needs the request to itself.
      return {
        content: [{ type: 'text', text: `${name} works only as a request of its own` }],
        isError: true,
      };
    default:
      throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  }
}

/** A fresh faulty server for one request (the route is stateless). */
export function createFaultyServer(faults: ListFaults): Server {
  const server = new Server(
    { name: 'edgeway-mock-faulty', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await sleep(faults.listDelayMs);
    if (faults.listError) throw new McpError(ErrorCode.InternalError, 'mock tools/list failure (list_error)');
    return { tools: [...FAULTY_TOOLS] };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(request.params.name, request.params.arguments),
  );
  return server;
}
