/**
 * The gateway with a driver in front, for `node bench/in-isolate/run.mjs`: what
 * the gateway's own JavaScript costs a request, without the network. `POST
 * /drive` runs `n` requests inside this isolate (through the gateway's own
 * `fetch`, or through the relay floor's steps for comparison), `concurrency`
 * at a time, optionally `gapMs` apart (a client at concurrency 1 leaves the
 * isolate idle between requests). Upstream calls to `upstream` are answered in
 * the isolate with a recorded answer of the mock, so the process's CPU over a
 * drive is the gateway's JavaScript, its bindings and the runtime's own
 * per-request work, and none of it is sockets. Every other path is the gateway.
 * Bundled by `wrangler deploy --dry-run` with this file as the entry and the
 * gateway's wrangler.toml, so it runs with every binding the gateway has.
 */
import type { Bindings } from '../../src/env';
import gateway from '../../src/index';

export { Breaker, Limiter, Throttle, VectorIndexDO } from '../../src/index';

interface Recorded {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

interface Drive {
  /** `edgeway`: the gateway's fetch; `relay`: the relay floor's steps (bench/floor-relay), in this isolate. */
  readonly mode: 'edgeway' | 'relay';
  readonly n: number;
  readonly concurrency: number;
  readonly gapMs: number;
  readonly key: string;
  readonly body: string;
  /** Upstream base URL whose calls are answered with `answer`. */
  readonly upstream: string;
  readonly answer: Recorded;
  /** Run the gateway with `LOG_SINK=off` (no log event is sent). */
  readonly logOff: boolean;
}

let recorded: { upstream: string; answer: Recorded } | null = null;
const networkFetch = globalThis.fetch;

/** Calls to the recorded upstream are answered here (their body read, as the network would); others go out. */
globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!recorded || !url.startsWith(recorded.upstream)) return networkFetch(input, init);
  await new Request(url, { method: 'POST', ...init }).arrayBuffer();
  const { status, headers, body } = recorded.answer;
  return new Response(body, { status, headers });
};

const withoutLogs = new WeakMap<Bindings, Bindings>();

function clientRequest(job: Drive, contentLength: string): Request {
  return new Request('http://edgeway.local/v1/chat/completions', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${job.key}`,
      'content-type': 'application/json',
      'content-length': contentLength,
    },
    body: job.body,
  });
}

/** The relay floor's JSON path (bench/floor-relay): the body read, parsed and sent on, the answer read and parsed. */
async function relay(request: Request, upstream: string): Promise<Response> {
  const body = JSON.parse(await request.text()) as { model: string };
  body.model = body.model.slice(body.model.indexOf('/') + 1);
  const res = await fetch(`${upstream}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer mock-key' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  JSON.parse(text);
  return new Response(text, res);
}

async function drive(job: Drive, env: Bindings, ctx: ExecutionContext): Promise<Response> {
  recorded = { upstream: job.upstream, answer: job.answer };
  let env2 = env;
  if (job.logOff) {
    env2 = withoutLogs.get(env) ?? { ...env, LOG_SINK: 'off' as Bindings['LOG_SINK'] };
    withoutLogs.set(env, env2);
  }
  // Measured once per drive, so no way pays for the driver's own encoding per request.
  const contentLength = String(new TextEncoder().encode(job.body).byteLength);
  let started = 0;
  let ok = 0;
  let failure = '';
  const lane = async () => {
    while (started < job.n) {
      started++;
      const request = clientRequest(job, contentLength);
      const res =
        job.mode === 'relay'
          ? await relay(request, job.upstream)
          : await gateway.fetch(request as never, env2, ctx);
      const text = await res.text();
      if (res.status === 200) ok++;
      else failure = `${res.status} ${text.slice(0, 300)}`;
      if (job.gapMs > 0) await new Promise((resolve) => setTimeout(resolve, job.gapMs));
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, lane));
  return Response.json({ ok, failure });
}

export default {
  async fetch(request: Request, env: Bindings, ctx: ExecutionContext): Promise<Response> {
    if (new URL(request.url).pathname === '/drive') return drive((await request.json()) as Drive, env, ctx);
    return gateway.fetch(request as never, env, ctx);
  },
  queue: gateway.queue,
  scheduled: gateway.scheduled,
} satisfies ExportedHandler<Bindings>;
