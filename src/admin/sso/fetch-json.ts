/**
 * One GET of an identity provider's JSON document (discovery, JWKS), bounded in
 * time and size and validated: any failure is an SsoUnavailable naming the URL,
 * which the admin API answers with 503 and the dashboard with a page in words.
 */
import type * as z from 'zod';

export const FETCH_TIMEOUT_MS = 5_000;
const MAX_BYTES = 256 * 1024;

export type HttpGet = (url: string, init: RequestInit) => Promise<Response>;

export class SsoUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SsoUnavailable';
  }
}

export async function fetchJson<S extends z.ZodType>(
  get: HttpGet,
  url: string,
  schema: S,
): Promise<z.output<S>> {
  let res: Response;
  try {
    res = await get(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (err) {
    throw new SsoUnavailable(
      `${url} could not be reached (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const text = res.ok ? await res.text() : '';
  if (!res.ok) throw new SsoUnavailable(`${url} answered HTTP ${res.status}`);
  if (text.length > MAX_BYTES) throw new SsoUnavailable(`${url} answered more than ${MAX_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SsoUnavailable(`${url} did not answer JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new SsoUnavailable(
      `${url} answered an unexpected document: ${parsed.error.issues[0]?.message ?? ''}`,
    );
  return parsed.data;
}
