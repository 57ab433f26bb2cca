/**
 * The gateway's MCP server for one request (the SDK's low-level Server): what a client sees on /mcp. Its
 * tools, prompts and resources are its key's share of the tenant's servers, renamed into one namespace
 * (src/mcp/names.ts); lists are gathered across servers (src/mcp/aggregate.ts), calls are forwarded
 * through every check (src/mcp/call.ts). A key that may use no tool at all is told so by an error, never
 * by an empty list.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  CallToolResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type Prompt,
  ReadResourceRequestSchema,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { gather, unavailableMeta } from './aggregate';
import { callUpstream, toolResultGuard } from './call';
import type { McpContext } from './context';
import { MCP_CODES, McpFailure, notPermitted } from './failure';
import { gatewayName, gatewayUri, splitName, splitUri } from './names';
import { passThroughValidator } from './pass-through-validator';
import { noToolsReason, toolAllowed } from './permissions';

export const SERVER_INFO = { name: 'edgeway', title: 'Edgeway MCP gateway', version: '1.0.0' };

const INSTRUCTIONS =
  "Tools, prompts and resources of this key's MCP servers, through the Edgeway gateway. Names are " +
  '<server>__<tool> (prompts alike) and resource URIs <server>+<uri>.';

export function gatewayServer(ctx: McpContext): Server {
  /** A request's upstream work ends when the client cancels it or goes away, whichever comes first. */
  const until = (cancelled: AbortSignal) => AbortSignal.any([cancelled, ctx.clientGone]);

  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, prompts: {}, resources: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: passThroughValidator,
  });

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const reason = noToolsReason(ctx.principal);
    if (reason) throw noTools(reason);
    const servers = await ctx.servers();
    if (servers.length === 0)
      throw noTools('no MCP server is registered for its tenant, or its allow-lists reach none');
    const { items, unavailable } = await gather<Tool>(
      ctx,
      servers,
      async (client, cursor, options) => {
        const page = await client.listTools(cursor ? { cursor } : {}, options);
        return { items: page.tools, nextCursor: page.nextCursor };
      },
      (ns, tool) =>
        toolAllowed(ctx.principal, ns, tool.name) ? { ...tool, name: gatewayName(ns, tool.name) } : null,
      until(extra.signal),
    );
    if (items.length === 0) {
      if (unavailable.length > 0)
        throw new McpFailure(
          MCP_CODES.unavailable,
          `No tool could be listed: ${unavailable.map((u) => u.error).join(' ')}`,
          502,
          'mcp_upstream_unavailable',
          { unavailable },
        );
      throw noTools("its allow-lists match none of its servers' tools");
    }
    return { tools: items, ...unavailableMeta(unavailable) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const split = splitName(name);
    if (!split) throw notPermitted(`Tool '${name}'`);
    const token = request.params._meta?.progressToken;
    const onprogress =
      token === undefined
        ? undefined
        : (progress: { progress: number; total?: number; message?: string }) => {
            void extra.sendNotification({
              method: 'notifications/progress',
              params: { ...progress, progressToken: token },
            });
          };
    return callUpstream<Record<string, unknown> | undefined, CallToolResult>(
      ctx,
      {
        method: 'tools/call',
        gatewayName: name,
        namespace: split.namespace,
        name: split.name,
        args,
        run: async (client, a, options) =>
          (await client.callTool(
            { name: split.name, arguments: a },
            CallToolResultSchema,
            options,
          )) as CallToolResult,
        guard: toolResultGuard(ctx),
        isError: (result) => result.isError === true,
      },
      until(extra.signal),
      onprogress,
    );
  });

  server.setRequestHandler(ListPromptsRequestSchema, async (_request, extra) => {
    const { items, unavailable } = await gather<Prompt>(
      ctx,
      await ctx.servers(),
      async (client, cursor, options) => {
        const page = await client.listPrompts(cursor ? { cursor } : {}, options);
        return { items: page.prompts, nextCursor: page.nextCursor };
      },
      (ns, prompt) =>
        toolAllowed(ctx.principal, ns, prompt.name)
          ? { ...prompt, name: gatewayName(ns, prompt.name) }
          : null,
      until(extra.signal),
    );
    return { prompts: items, ...unavailableMeta(unavailable) };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const split = splitName(name);
    if (!split) throw notPermitted(`Prompt '${name}'`);
    return callUpstream(
      ctx,
      {
        method: 'prompts/get',
        gatewayName: name,
        namespace: split.namespace,
        name: split.name,
        args,
        run: (client, a, options) => client.getPrompt({ name: split.name, arguments: a }, options),
      },
      until(extra.signal),
    );
  });

  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const { items, unavailable } = await gather<Resource>(
      ctx,
      await ctx.servers(),
      async (client, cursor, options) => {
        const page = await client.listResources(cursor ? { cursor } : {}, options);
        return { items: page.resources, nextCursor: page.nextCursor };
      },
      (ns, resource) => ({ ...resource, uri: gatewayUri(ns, resource.uri) }),
      until(extra.signal),
    );
    return { resources: items, ...unavailableMeta(unavailable) };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (_request, extra) => {
    const { items, unavailable } = await gather<ResourceTemplate>(
      ctx,
      await ctx.servers(),
      async (client, cursor, options) => {
        const page = await client.listResourceTemplates(cursor ? { cursor } : {}, options);
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      },
      (ns, template) => ({ ...template, uriTemplate: gatewayUri(ns, template.uriTemplate) }),
      until(extra.signal),
    );
    return { resourceTemplates: items, ...unavailableMeta(unavailable) };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const split = splitUri(uri);
    if (!split) throw notPermitted(`Resource '${uri}'`);
    const result = await callUpstream(
      ctx,
      {
        method: 'resources/read',
        gatewayName: uri,
        namespace: split.namespace,
        name: split.name,
        args: undefined,
        run: (client, _a, options) => client.readResource({ uri: split.name }, options),
      },
      until(extra.signal),
    );
    return {
      ...result,
      contents: result.contents.map((c) => ({ ...c, uri: gatewayUri(split.namespace, c.uri) })),
    };
  });

  return server;
}

function noTools(why: string): McpFailure {
  return new McpFailure(MCP_CODES.noTools, `This key may use no MCP tools: ${why}.`, 403, 'mcp_no_tools');
}
