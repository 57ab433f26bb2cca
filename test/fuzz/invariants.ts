/**
 * What every answer to a fuzzed request must satisfy (pure): never a 5xx, and
 * errors in the envelope of the route that answered — Anthropic's on
 * /v1/messages, OpenAI's on the other /v1 routes, unknown paths and /admin
 * (the admin API's own errors use the OpenAI envelope), an HTML page or a
 * redirect on /dashboard. Shared by the vitest suite and bench/fuzz.mjs.
 */

export type Envelope = 'openai' | 'anthropic' | 'dashboard';

export interface Answer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** The request carried `anthropic-version` (the models paths then answer in Anthropic's envelope). */
  readonly anthropicVersion?: boolean;
}

/** The envelope the gateway promises on a path (same rule as src/core/endpoints.ts formatForRequest). */
export function envelopeFor(path: string, anthropicVersion = false): Envelope {
  if (path === '/dashboard' || path.startsWith('/dashboard/')) return 'dashboard';
  const models = path === '/v1/models' || (path.startsWith('/v1/models/') && path.length > 11);
  if (models) return anthropicVersion ? 'anthropic' : 'openai';
  return path.startsWith('/v1/messages') ? 'anthropic' : 'openai';
}

/** The broken promises of one answer; empty when it keeps them all. */
export function violations(answer: Answer): string[] {
  const out: string[] = [];
  const { status, path, method } = answer;
  if (status >= 500) out.push(`status ${status}`);
  if (status < 400 || method === 'HEAD') return out;
  const envelope = envelopeFor(path, answer.anthropicVersion === true);
  if (envelope === 'dashboard') {
    if (!/^text\/html\b/i.test(answer.contentType)) out.push(`dashboard error as ${answer.contentType}`);
    return out;
  }
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    out.push(`non-JSON ${envelope} error body: ${answer.body.slice(0, 80)}`);
    return out;
  }
  const problem = envelope === 'anthropic' ? anthropicProblem(json) : openAiProblem(json);
  if (problem) out.push(`${envelope} envelope: ${problem}`);
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function openAiProblem(json: unknown): string | null {
  if (!isObject(json) || !isObject(json.error)) return 'no error object';
  const e = json.error;
  if (typeof e.message !== 'string' || e.message === '') return 'no message';
  if (typeof e.type !== 'string') return 'no type';
  if (!('param' in e) || !(e.param === null || typeof e.param === 'string')) return 'bad param';
  if (!('code' in e) || !(e.code === null || typeof e.code === 'string')) return 'bad code';
  return null;
}

function anthropicProblem(json: unknown): string | null {
  if (!isObject(json) || json.type !== 'error' || !isObject(json.error)) return 'not {type:"error",error}';
  if (typeof json.error.type !== 'string') return 'no error.type';
  if (typeof json.error.message !== 'string' || json.error.message === '') return 'no error.message';
  return null;
}
