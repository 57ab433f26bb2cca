/**
 * Test helpers for the mock's MCP servers: an SDK client whose transport reaches the mock through
 * SELF.fetch, the way the gateway's MCP client reaches a remote tool server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SELF } from 'cloudflare:test';
import { BASE } from './helpers';

export const HEALTHY = `${BASE}/mcp/healthy`;
export const FAULTY = `${BASE}/mcp/faulty`;
export const TOKEN = 'mock-mcp-token';

export interface Connection {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** Errors the transport reported (a dropped stream shows up here, not as the call's rejection). */
  readonly transportErrors: Error[];
}

export interface ConnectOptions {
  readonly headers?: Record<string, string>;
  /** Reuse this session id: the client skips `initialize`, as the gateway does. */
  readonly sessionId?: string;
}

/** A client on `url`; connected (initialized, unless a session id is given) when the promise resolves. */
export async function connect(url: string, options: ConnectOptions = {}): Promise<Connection> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: (input, init) => SELF.fetch(input, init),
    requestInit: { headers: options.headers ?? {} },
    sessionId: options.sessionId,
  });
  const transportErrors: Error[] = [];
  const client = new Client({ name: 'mock-llm-tests', version: '1.0.0' });
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);
  return { client, transport, transportErrors };
}

/** A client on the healthy server with its token (and any extra headers). */
export function connectHealthy(options: ConnectOptions = {}): Promise<Connection> {
  return connect(HEALTHY, { ...options, headers: { authorization: `Bearer ${TOKEN}`, ...options.headers } });
}

/** The text of a tool result's first content block. */
export function firstText(result: object): string | undefined {
  const content = 'content' in result ? result.content : undefined;
  const block = (content as { type: string; text?: string }[] | undefined)?.[0];
  return block?.type === 'text' ? block.text : undefined;
}
