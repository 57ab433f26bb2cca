/**
 * How upstream names appear through the gateway (pure): a tool or prompt `t` of the server with namespace
 * `ns` is `ns__t`; a resource `u` is `ns+u` (a valid URI scheme prefix, since a namespace is letters,
 * digits and `-`). Namespaces hold no `_` nor `+`, so the first `__` or `+` splits a name back.
 */
const TOOL_JOIN = '__';
const URI_JOIN = '+';

export const gatewayName = (namespace: string, name: string): string => `${namespace}${TOOL_JOIN}${name}`;
export const gatewayUri = (namespace: string, uri: string): string => `${namespace}${URI_JOIN}${uri}`;

export interface Split {
  readonly namespace: string;
  readonly name: string;
}

/** `ns__tool` → {ns, tool}; null for a name without a namespace. */
export function splitName(name: string): Split | null {
  const at = name.indexOf(TOOL_JOIN);
  if (at <= 0 || at + TOOL_JOIN.length === name.length) return null;
  return { namespace: name.slice(0, at), name: name.slice(at + TOOL_JOIN.length) };
}

/** `ns+uri` → {ns, uri}; null for a URI without a namespace. */
export function splitUri(uri: string): Split | null {
  const at = uri.indexOf(URI_JOIN);
  if (at <= 0 || at + 1 === uri.length) return null;
  return { namespace: uri.slice(0, at), name: uri.slice(at + 1) };
}
