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
import type { Bindings } from '../../src/env';
import { bindings } from './log-fixtures';

export interface Counts {
  settles: { usage: Usage | null; stream: StreamEnd | undefined }[];
  releases: (CachedEntry | null)[];
  events: LogEvent[];
  /** With `captureUpstream`: every call the mock LLM received, its URL and its JSON body. */
  upstream: { url: string; body: unknown }[];
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
  /** Record what the mock LLM receives (counts.upstream), through a wrapped MOCK_LLM binding. */
  readonly captureUpstream?: boolean;
}

/** The bindings with a MOCK_LLM that records each request it forwards. */
function capturing(into: Counts['upstream']): Bindings {
  const mock = bindings.MOCK_LLM;
  if (!mock) throw new Error('the MOCK_LLM service binding is missing (vitest.config.ts)');
  const recorder = {
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(input, init);
      const text = await request.clone().text();
      into.push({ url: request.url, body: text === '' ? null : JSON.parse(text) });
      return mock.fetch(request);
    },
  } as Fetcher;
  return { ...bindings, MOCK_LLM: recorder };
}

/** The real deps, wrapped: the limiter's settle and the cache lease count their calls, the log sink keeps events. */
export function harness(faults: HarnessOptions = {}) {
  const counts: Counts = { settles: [], releases: [], events: [], upstream: [] };
  const env = faults.captureUpstream ? capturing(counts.upstream) : bindings;
  const base = getDeps(env);
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
      new CountingCache(env.KV_CACHE, { inflightWaitMs: faults.inflightWaitMs }),
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
      env,
      ctx,
    );
    const read_ = await read(res);
    await waitOnExecutionContext(ctx);
    return { res, body: read_ };
  }
  return { counts, call };
}
