/**
 * Exact-cache keys (pure). The key hashes tenant, provider, endpoint, model,
 * an optional client namespace and the canonical body: object keys sorted, and
 * fields that do not change the answer removed. Provider keys never enter it.
 */
import { sha256Hex } from '../util/crypto';

/** Fields that change how the answer is delivered or attributed, not what it is. */
const IGNORED_FIELDS = new Set(['stream', 'stream_options', 'user', 'metadata', 'store', 'service_tier']);

/** Punctuation queued between values while writing canonical JSON. */
class Text {
  constructor(readonly text: string) {}
}

/**
 * JSON with object keys sorted and undefined members dropped. Written with an
 * explicit stack instead of recursion, so no nesting depth can overflow the
 * call stack (bodies are also held to MAX_JSON_DEPTH before parsing).
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const work: unknown[] = [value];
  while (work.length > 0) {
    const item = work.pop();
    if (item instanceof Text) {
      out.push(item.text);
    } else if (Array.isArray(item)) {
      work.push(new Text(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        work.push(item[i]);
        if (i > 0) work.push(new Text(','));
      }
      out.push('[');
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      work.push(new Text('}'));
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i] as [string, unknown];
        work.push(v, new Text(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`));
      }
      out.push('{');
    } else {
      out.push(JSON.stringify(item) ?? 'null');
    }
  }
  return out.join('');
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
