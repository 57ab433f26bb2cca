/** A JSON-RPC error outside any request (id null) as an HTTP answer: what /mcp says before a message is read. */
export function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code, message }, id: null },
    { status, headers: { 'cache-control': 'no-store', ...headers } },
  );
}
