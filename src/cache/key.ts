/**
 * Exact-cache keys (pure). The key hashes tenant, provider, endpoint, model,
 * an optional client namespace and the canonical body: object keys sorted, and
 * fields that do not change the answer removed. Provider keys never enter it.
 */
import { sha256Hex } from '../util/crypto';

/** Fields that change how the answer is delivered or attributed, not what it is. */
const IGNORED_FIELDS = new Set(['stream', 'stream_options', 'user', 'metadata', 'store', 'service_tier']);

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function normalisedBody(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!IGNORED_FIELDS.has(k) && v !== null) out[k] = v;
  return out;
}

export interface ExactKeyInput {
  readonly tenantId: string;
  readonly provider: string;
  readonly endpoint: string;
  readonly model: string;
  readonly body: Record<string, unknown>;
  /** From `cf-aig-cache-key`: lets a client separate (or share) entries on purpose, within its tenant. */
  readonly namespace: string | null;
}

export async function exactCacheKey(input: ExactKeyInput): Promise<string> {
  const material = canonicalJson({
    t: input.tenantId,
    p: input.provider,
    e: input.endpoint,
    m: input.model,
    n: input.namespace,
    b: normalisedBody(input.body),
  });
  return `v1:${input.tenantId}:${await sha256Hex(material)}`;
}
