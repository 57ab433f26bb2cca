/**
 * One call to one upstream server — tools/call, prompts/get or resources/read — through every check the
 * tool path has, in order: the key may use it (src/mcp/permissions.ts), the server is usable, the
 * arguments pass the secrets guardrail, the limits admit it (tool calls only), the upstream answers within
 * its timeout (progress relayed), the result passes the guardrails; then the limits are settled and the
 * call is logged, however it ended.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LogGuardrail } from '../core/log-event';
import { policyOf } from '../guardrails/scanners';
import { uuid7 } from '../util/uuid7';
import type { McpContext } from './context';
import { MCP_CODES, McpFailure, notPermitted, upstreamFailure } from './failure';
import { guardArguments, guardResult } from './guard';
import type { Held } from './limits';
import { type McpMethod, mcpLogEvent } from './log';
import { toolAllowed } from './permissions';
import type { Reachable } from './servers';
import { exchange } from './upstream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';

export interface CallSpec<A, R> {
  readonly method: McpMethod;
  /** The name the client used (`ns__tool`, `ns+uri`). */
  readonly gatewayName: string;
  readonly namespace: string;
  /** The upstream's own name (tool, prompt) or URI. */
  readonly name: string;
  readonly args: A;
  /** Asks the upstream. */
  readonly run: (client: Client, args: A, options: RequestOptions) => Promise<R>;
  /** Guards the result (tools/call); absent: passed through. */
  readonly guard?: (result: R, verdicts: LogGuardrail[]) => { value: R; blocked: string | null };
  /** What the log records as the upstream's error flag. */
  readonly isError?: (result: R) => boolean;
}

function blocked(guardrail: string, where: 'arguments' | 'result'): McpFailure {
  return new McpFailure(
    MCP_CODES.blocked,
    `The tool call's ${where} ${where === 'result' ? 'was' : 'were'} refused by the ${guardrail} guardrail.`,
    400,
    'guardrail_blocked',
    { guardrail },
  );
}

export async function callUpstream<A, R>(
  ctx: McpContext,
  spec: CallSpec<A, R>,
  signal: AbortSignal,
  onprogress?: RequestOptions['onprogress'],
): Promise<R> {
  const started = performance.now();
  const time = ctx.now();
  const verdicts: LogGuardrail[] = [];
  let reachable: Reachable | undefined;
  let args: A = spec.args;
  let result: R | undefined;
  let failure: McpFailure | null = null;
  let attempts = 0;
  let held: Held | null = null;
  try {
    const servers = await ctx.servers();
    reachable = servers.find((r) => r.server.namespace === spec.namespace);
    const what =
      spec.method === 'tools/call'
        ? `Tool '${spec.gatewayName}'`
        : spec.method === 'prompts/get'
          ? `Prompt '${spec.gatewayName}'`
          : `Resource '${spec.gatewayName}'`;
    if (
      !reachable ||
      (spec.method !== 'resources/read' && !toolAllowed(ctx.principal, spec.namespace, spec.name))
    )
      throw notPermitted(what);
    const { server, problem } = reachable;
    if (problem !== null)
      throw new McpFailure(
        MCP_CODES.unavailable,
        `MCP server '${server.namespace}' ${problem}.`,
        503,
        'mcp_server_unavailable',
        {
          server: server.namespace,
        },
      );
    if (spec.method === 'tools/call') {
      const guarded = guardArguments(
        policyOf(ctx.principal),
        args as Record<string, unknown> | undefined,
        verdicts,
      );
      if (guarded.blocked) throw blocked(guarded.blocked, 'arguments');
      args = guarded.value as A;
      held = await ctx.hold();
    }
    const target = await ctx.target(server);
    attempts = 1;
    const done = await exchange(target, signal, (client, options) =>
      spec.run(client, args, onprogress ? { ...options, onprogress } : options),
    );
    if (done.session) ctx.remember(server.id, done.session);
    result = done.value;
    if (spec.guard) {
      const guarded = spec.guard(result, verdicts);
      if (guarded.blocked) throw blocked(guarded.blocked, 'result');
      result = guarded.value;
    }
    return result;
  } catch (err) {
    failure =
      err instanceof McpFailure
        ? err
        : upstreamFailure(err, spec.namespace, reachable?.server.timeoutMs ?? 0);
    throw failure;
  } finally {
    if (held) ctx.keep(held());
    ctx.log(
      mcpLogEvent({
        requestId: uuid7(time),
        time,
        principal: ctx.principal,
        endUser: ctx.endUser?.id ?? null,
        method: spec.method,
        serverId: reachable?.server.id ?? null,
        namespace: spec.namespace,
        name: spec.name,
        gatewayName: spec.gatewayName,
        args,
        result,
        isError: result !== undefined && (spec.isError?.(result) ?? false),
        failure,
        latencyMs: performance.now() - started,
        attempts,
        guardrails: verdicts,
        payloadMaxBytes: ctx.payloadMaxBytes,
      }),
    );
  }
}

/** tools/call's guard: the result guardrails of the key's policy. */
export function toolResultGuard(ctx: McpContext) {
  return (result: CallToolResult, verdicts: LogGuardrail[]) =>
    guardResult(policyOf(ctx.principal), result, verdicts);
}
