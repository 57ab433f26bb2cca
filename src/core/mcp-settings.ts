/**
 * Who may use which MCP tools, and how often (docs/mcp.md): the allow-lists and tool-call limits a key
 * and its tenant carry in their `scopes` (src/core/settings.ts), so they ride in the key record and the
 * /mcp endpoint reads no D1 to apply them.
 *
 * A tool's gateway name is `<namespace>__<tool>` (a registered server's namespace, then the upstream's own
 * name). An allow-list holds patterns over those names: `*` alone, or `<namespace glob>__<tool glob>` where
 * `*` matches any run of characters (`github__*`, `*__read_*`, `search__query`). A server is reachable when
 * some pattern's namespace glob matches its namespace: its prompts and resources are then listed too.
 * null allows every tool; `[]` allows none.
 */
import * as z from 'zod';

/** A registered server's namespace: lower-case, no underscores, so `__` and `+` can join names unambiguously. */
export const MCP_NAMESPACE = /^[a-z][a-z0-9-]{0,31}$/;

/** `*`, or `<namespace glob>__<tool glob>`. */
export const McpToolPattern = z
  .string()
  .min(1)
  .max(160)
  .regex(
    /^(\*|[a-z0-9*-]+__[\x21-\x7e]+)$/,
    'a tool pattern is `*` or `<namespace glob>__<tool glob>` (e.g. `github__*`)',
  );

const perPeriod = z.number().int().positive().max(100_000_000);

/** Tool calls admitted per minute (a sliding window) and per UTC day, exact under any concurrency. */
export const McpCalls = z.strictObject({
  per_minute: perPeriod.optional(),
  per_day: perPeriod.optional(),
});
export type McpCalls = z.infer<typeof McpCalls>;

/** The most patterns one allow-list may hold. */
export const MAX_MCP_PATTERNS = 64;

const tools = z.array(McpToolPattern).max(MAX_MCP_PATTERNS).nullable().default(null);

/** A key's MCP settings: its allow-list (narrows its tenant's) and its own tool-call limits. */
export const KeyMcp = z.strictObject({
  tools,
  calls: McpCalls.nullable().default(null),
});
export type KeyMcp = z.infer<typeof KeyMcp>;

/** A tenant's: its allow-list, its tool-call limits, and the limits each of its end users is held to. */
export const TenantMcp = z.strictObject({
  tools,
  calls: McpCalls.nullable().default(null),
  end_user_calls: McpCalls.nullable().default(null),
});
export type TenantMcp = z.infer<typeof TenantMcp>;
