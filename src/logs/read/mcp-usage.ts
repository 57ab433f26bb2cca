/**
 * Reads the usage_mcp_daily rollups for the admin API (migration 0022): MCP calls per server namespace,
 * method and tool over a range of UTC days, for everything, one tenant or one key; most-called first.
 * Tool calls are not model requests: they are counted here, never in usage_daily's requests, tokens or
 * cost. resources/read calls come as one group per server (tool ''). Rollups outlive raw-log retention.
 */
import * as z from 'zod';

export const McpUsage = z.object({
  server: z.string().describe("The MCP server's namespace (the log's provider is mcp:<namespace>)."),
  method: z
    .string()
    .describe('tools/call, prompts/get or resources/read; empty for calls refused before it was known.'),
  tool: z
    .string()
    .describe(
      'The tool or prompt as clients call it (<namespace>__<tool>); empty for resources/read (every resource of the server).',
    ),
  calls: z.number().describe('Calls logged (each reached, or was refused before reaching, the server).'),
  errors: z.number().describe('Calls refused or failed: status ≥ 400 or an error code.'),
  tool_errors: z.number().describe('Calls the tool answered with isError (it ran and reported a failure).'),
  args_bytes: z.number().describe('Arguments sent, as JSON, in bytes.'),
  result_bytes: z.number().describe('Results returned, as JSON, in bytes.'),
  latency_ms: z.number().describe('Summed latency; divide by calls for the mean.'),
});
export type McpUsage = z.output<typeof McpUsage>;

/** At most this many groups: enough for any dashboard, bounded however many tools servers list. */
export const MCP_USAGE_MAX = 500;

export interface McpUsageQuery {
  tenantId?: string | undefined;
  keyId?: string | undefined;
  /** Inclusive UTC days, 'YYYY-MM-DD'. */
  from: string;
  to: string;
}

export async function mcpUsage(db: D1Database, q: McpUsageQuery): Promise<McpUsage[]> {
  const where = ['day >= ?', 'day <= ?'];
  const binds: (string | number)[] = [q.from, q.to];
  if (q.tenantId !== undefined) {
    where.push('tenant_id = ?');
    binds.push(q.tenantId);
  }
  if (q.keyId !== undefined) {
    where.push('key_id = ?');
    binds.push(q.keyId);
  }
  const { results } = await db
    .prepare(
      `SELECT server, method, tool, sum(calls) AS calls, sum(errors) AS errors, sum(tool_errors) AS tool_errors,
         sum(args_bytes) AS args_bytes, sum(result_bytes) AS result_bytes, sum(latency_ms) AS latency_ms
       FROM usage_mcp_daily WHERE ${where.join(' AND ')}
       GROUP BY server, method, tool ORDER BY calls DESC, server, method, tool LIMIT ?`,
    )
    .bind(...binds, MCP_USAGE_MAX)
    .all();
  return results.map((r) => McpUsage.parse(r));
}
