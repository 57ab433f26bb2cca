/**
 * The exchange harness: the real app with the real deps (Limiter Durable
 * Object, KV cache, mock LLM), wrapped so the limiter's settle and the cache
 * lease count their calls and the log sink keeps its events — to check that a
 * request, however it ends, settles once, releases once and logs once.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { createApp } from '../../src/app';
import type { CachedEntry } from '../../src/cache/entry';
import { ExactCache } from '../../src/cache/exact-cache';
import { ResponseCache } from '../../src/cache/response-cache';
import type { Limiter, StreamEnd } from '../../src/core/limiter';
import type { LogEvent } from '../../src/core/log-event';
import type { Usage } from '../../src/core/usage';
import { getDeps } from '../../src/deps';
import type { SecondOpinion } from '../../src/guardrails/second-opinion/port';
import { bindings } from './log-fixtures';

export interface Counts {
  settles: { usage: Usage | null; stream: StreamEnd | undefined }[];
  releases: (CachedEntry | null)[];
  events: LogEvent[];
}

export interface HarnessOptions {
  /** The cache lookup throws (an exception in our own code after the reservation). */
  readonly lookup?: boolean;
  /** Storing a whole answer in the cache fails. */
  readonly store?: boolean;
  /** How long an identical request waits for the one in flight (ExactCache's default otherwise). */
  readonly inflightWaitMs?: number;
  /** The guardrails' second opinion (the deployment's otherwise: none without an AI binding). */
  readonly secondOpinion?: SecondOpinion;
}

/** The real deps, wrapped: the limiter's settle and the cache lease count their calls, the log sink keeps events. */
export function harness(faults: HarnessOptions = {}) {
  const counts: Counts = { settles: [], releases: [], events: [] };
  const base = getDeps(bindings);
  class CountingCache extends ExactCache {
    override async get(key: string) {
      if (faults.lookup) throw new TypeError("Cannot read properties of undefined (reading 'body')");
      return super.get(key);
    }
    override async put(key: string, entry: CachedEntry, ttl: number) {
      if (faults.store) throw new Error('KV put failed');
      return super.put(key, entry, ttl);
    }
    override lead(key: string) {
      const release = super.lead(key);
      return (entry: CachedEntry | null) => {
        counts.releases.push(entry);
        release(entry);
      };
    }
  }
  const limiter: Limiter = {
    async reserve(principal, request) {
      const reservation = await base.limiter.reserve(principal, request);
      return {
        ...reservation,
        settle: (usage, stream) => {
          counts.settles.push({ usage, stream });
          return reservation.settle(usage, stream);
        },
      };
    },
  };
  const deps = {
    ...base,
    limiter,
    cache: new ResponseCache(
      new CountingCache(bindings.KV_CACHE, { inflightWaitMs: faults.inflightWaitMs }),
      base.cache.semantic,
    ),
    logs: { send: async (event: LogEvent) => void counts.events.push(event) },
    secondOpinion: faults.secondOpinion ?? base.secondOpinion,
  };
  const app = createApp({ deps: () => deps });

  /** One request; `read` consumes the response (default: all of it); resolves once every waitUntil has finished. */
  async function call<T = string>(
    body: unknown,
    key: string,
    read: (res: Response) => Promise<T> = (r) => r.text() as Promise<T>,
    headers: Record<string, string> = {},
    path = '/v1/chat/completions',
  ): Promise<{ res: Response; body: T }> {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`http://gw.test${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
        body: JSON.stringify(body),
      }),
      bindings,
      ctx,
    );
    const read_ = await read(res);
    await waitOnExecutionContext(ctx);
    return { res, body: read_ };
  }
  return { counts, call };
}
