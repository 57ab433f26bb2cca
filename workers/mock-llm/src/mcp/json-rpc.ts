/**
 * JSON-RPC-shaped HTTP errors for the MCP routes, in the shape the SDK's own transport answers
 * (`{"jsonrpc":"2.0","error":{code,message},"id":null}`), so a client cannot tell the mock's
 * answers from the SDK's.
 */
import { jsonResponse } from '../http';

/** The SDK's code for an unknown session (404) and for transport-level refusals. */
export const SESSION_NOT_FOUND = -32001;
export const SERVER_ERROR = -32000;
export const PARSE_ERROR = -32700;

export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse({ jsonrpc: '2.0', error: { code, message }, id: null }, status, headers);
}

/** The request's JSON body, or undefined when it is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    return undefined;
  }
}
