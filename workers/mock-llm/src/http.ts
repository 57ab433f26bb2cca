/**
 * Small HTTP helpers shared by every route: JSON responses, request ids, and
 * reading a JSON object body. Kept free of any route's wire format.
 */

/** The two error envelopes (and request-id headers) the mock speaks. */
export type Shape = 'openai' | 'anthropic';

/** A fresh request id in the providers' style ("req_" + 32 hex digits). */
export function newRequestId(): string {
  return `req_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** The header each provider uses for its request id. */
export function requestIdHeader(shape: Shape): string {
  return shape === 'openai' ? 'x-request-id' : 'request-id';
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The parsed body when it is a JSON object; null for malformed JSON or any other JSON value. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown> | null> {
  let value: unknown;
  try {
    value = await request.json();
  } catch {
    return null;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Resolves after `ms` milliseconds (immediately for 0). */
export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
