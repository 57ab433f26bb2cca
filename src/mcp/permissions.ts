/**
 * Which tools a key may use (pure; the settings are src/core/mcp-settings.ts): a tool is allowed when its
 * tenant's allow-list and its key's both match its gateway name (null: every tool; `[]`: none). A pattern
 * is `*` or `<namespace glob>__<tool glob>`, where `*` matches any run of characters. A server is
 * reachable when both lists have a pattern whose namespace glob matches its namespace; its prompts and
 * resources are offered then, and its tools one by one as the lists allow.
 */
import type { Principal } from '../core/principal';

/** The compiled patterns of one allow-list, by the list itself (lists live as long as their key record). */
const compiled = new WeakMap<readonly string[], readonly Compiled[]>();

interface Compiled {
  readonly all: boolean;
  readonly namespace: RegExp;
  readonly tool: RegExp;
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

function compile(list: readonly string[]): readonly Compiled[] {
  let patterns = compiled.get(list);
  if (!patterns) {
    patterns = list.map((pattern) => {
      if (pattern === '*') return { all: true, namespace: /^/, tool: /^/ };
      const at = pattern.indexOf('__');
      return {
        all: false,
        namespace: globToRegExp(pattern.slice(0, at)),
        tool: globToRegExp(pattern.slice(at + 2)),
      };
    });
    compiled.set(list, patterns);
  }
  return patterns;
}

function listAllows(list: readonly string[] | null, namespace: string, tool: string | null): boolean {
  if (list === null) return true;
  return compile(list).some(
    (p) => p.all || (p.namespace.test(namespace) && (tool === null || p.tool.test(tool))),
  );
}

type Lists = readonly [tenant: readonly string[] | null, key: readonly string[] | null];

const listsOf = (principal: Principal): Lists => [
  principal.tenantScopes.mcp?.tools ?? null,
  principal.scopes.mcp?.tools ?? null,
];

/** May the key reach the server with this namespace at all (for its prompts and resources)? */
export function serverReachable(principal: Principal, namespace: string): boolean {
  return listsOf(principal).every((list) => listAllows(list, namespace, null));
}

/** May the key call `tool` of the server with this namespace? */
export function toolAllowed(principal: Principal, namespace: string, tool: string): boolean {
  return listsOf(principal).every((list) => listAllows(list, namespace, tool));
}

/** Why a key may use no tool at all, for the error that says so; null when some list allows something. */
export function noToolsReason(principal: Principal): string | null {
  const [tenant, key] = listsOf(principal);
  if (tenant !== null && tenant.length === 0) return "the tenant's MCP allow-list is empty";
  if (key !== null && key.length === 0) return "the key's MCP allow-list is empty";
  return null;
}
