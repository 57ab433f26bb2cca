/**
 * What a span says of an MCP call (pure), by the OpenTelemetry MCP semantic conventions
 * (open-telemetry/semantic-conventions-genai, docs/gen-ai/mcp.md, Development status): `mcp.method.name`;
 * `gen_ai.operation.name` = `execute_tool` and `gen_ai.tool.name` for tools/call only (so trace stores treat
 * it like any tool execution); `gen_ai.prompt.name` for prompts/get; `mcp.resource.uri` for resources/read;
 * `error.type` = `tool_error` when the tool answered with isError. Names are as the client called them
 * (`<namespace>__<tool>`), which is what the caller's own execute_tool span holds; the upstream server's id,
 * namespace, own name and the sizes are the gateway's `edgeway.mcp.*` attributes. The span is named
 * `{mcp.method.name} {target}`, the target being the tool or prompt name (never a resource URI: unbounded).
 * Model attributes (provider, model, tokens) are left out: an MCP server is not a GenAI provider.
 */
import type { LogEvent } from '../../core/log-event';
import type { Plain } from './attributes';

/** What an MCP call's error reads as when the JSON-RPC call succeeded but the tool reported a failure. */
export const TOOL_ERROR = 'tool_error';

export interface McpSpanParts {
  readonly name: string;
  readonly attributes: Readonly<Record<string, Plain>>;
  /** `error.type`: the gateway's error code, else `tool_error` for a tool that failed, else null. */
  readonly errorType: string | null;
}

export function mcpSpanParts(event: LogEvent): McpSpanParts {
  const m = event.mcp;
  // A call refused before its server was resolved may carry no mcp field: it is then named by its model.
  const method = m?.method ?? null;
  const tool = method === 'tools/call' ? event.model : null;
  const prompt = method === 'prompts/get' ? event.model : null;
  const target = tool ?? prompt;
  const errorType = event.errorCode ?? (m?.isError ? TOOL_ERROR : null);
  return {
    name: method ? (target ? `${method} ${target}` : method) : (event.model ?? 'mcp'),
    errorType,
    attributes: {
      'mcp.method.name': method,
      'gen_ai.operation.name': tool ? 'execute_tool' : null,
      'gen_ai.tool.name': tool,
      'gen_ai.prompt.name': prompt,
      'mcp.resource.uri': method === 'resources/read' ? (m?.name ?? null) : null,
      'edgeway.mcp.server': m?.server ?? null,
      'edgeway.mcp.namespace': m?.namespace ?? null,
      'edgeway.mcp.name': m?.name ?? null,
      'edgeway.mcp.args_bytes': m?.argsBytes ?? null,
      'edgeway.mcp.result_bytes': m?.resultBytes ?? null,
      'edgeway.mcp.is_error': m?.isError ?? null,
    },
  };
}
