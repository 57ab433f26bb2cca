/**
 * Reads a request body as JSON exactly once, enforcing the size limit (while
 * streaming when no length is declared; a lying one is still refused), strict
 * UTF-8, the JSON content type, and the depth budget (json-budget.ts) before
 * JSON.parse. Every failure is a 4xx in the route's shape: /v1, /admin and
 * the dashboard's calls into /admin all read their bodies here.
 */
import { jsonProblem } from '../util/json-problem';
import { GatewayError, badRequest } from '../core/errors';
import { MAX_JSON_DEPTH, tooDeep } from './json-budget';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;

export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!JSON_TYPE.test(type.trim())) {
    throw new GatewayError(415, 'Content-Type must be application/json.', { code: 'unsupported_media_type' });
  }
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = declared >= 0 ? await readDeclared(request, maxBytes) : await readBounded(request, maxBytes);
  if (bytes.byteLength === 0)
    throw badRequest('Request body is empty; expected a JSON object.', null, 'invalid_json');
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw badRequest('Request body is not valid UTF-8.', null, 'invalid_encoding');
  }
  if (tooDeep(text, MAX_JSON_DEPTH)) {
    throw badRequest(
      `Request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
      null,
      'json_too_deep',
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`Request body is not valid JSON: ${jsonProblem(err)}.`, null, 'invalid_json');
  }
}

/**
 * A body with a declared length within the limit is read in one native call. Over HTTP the framing ends the
 * body at the declared length, so the buffer is bounded by the limit; a caller in the same process (a
 * service binding) can send more than it declares, so the length read is checked again.
 */
async function readDeclared(request: Request, maxBytes: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

/** A body of unknown length (chunked) is read chunk by chunk and refused as soon as it passes the limit. */
async function readBounded(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    parts.push(value);
  }
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.byteLength;
  }
  return out;
}

function tooLarge(maxBytes: number): GatewayError {
  return new GatewayError(413, `Request body exceeds the ${maxBytes}-byte limit.`, {
    code: 'request_too_large',
  });
}
