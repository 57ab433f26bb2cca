// The relay floor's JSON steps (bench/floor-relay) plus the per-request guarantees Edgeway's JSON path
// carries, each switched on by name in the `CARRY` var (comma-separated), so bench/guarantees/run.mjs
// can charge each to the runtime with no gateway code around it:
// - `signal`: an AbortController's signal on the upstream fetch (what a deadline or a client that leaves aborts);
// - `ttfb`: a timer armed across the wait for the upstream's headers (the first-byte deadline);
// - `body`: a second timer armed across reading the answer (the body's deadline);
// - `waituntil`: a promise kept with waitUntil (the exchange's exit, where the log event is sent);
// - `headers`: eight response headers set after the response is built (request id, overhead, cache, target...).
// Each is the least code that carries its guarantee; nothing here logs, routes or checks a key.
import { ownRequest } from '../floor-relay/own-request.mjs';

/** What this isolate carries, read once from `CARRY` (env is the same object for every request). */
let carried = null;

export default {
  async fetch(request, env, ctx) {
    carried ??= new Set((env.CARRY ?? '').split(',').filter(Boolean));
    const url = new URL(request.url);
    const init = await ownRequest(request);
    const abort = carried.has('signal') ? new AbortController() : null;
    if (abort) init.signal = abort.signal;
    const onTimeout = () => abort?.abort(new Error('deadline'));
    let timer = carried.has('ttfb') ? setTimeout(onTimeout, 60_000) : null;
    const res = await fetch(env.UPSTREAM_URL + url.pathname + url.search, init);
    if (timer !== null) clearTimeout(timer);
    timer = carried.has('body') ? setTimeout(onTimeout, 30_000) : null;
    const text = await res.text();
    if (timer !== null) clearTimeout(timer);
    try {
      JSON.parse(text);
    } catch {}
    const out = new Response(text, res);
    if (carried.has('headers')) {
      for (const name of HEADERS) out.headers.set(name, '0193a1c2-7b4e-7d3f-9a10-3c5e8f2b1d04');
    }
    if (carried.has('waituntil')) ctx.waitUntil(Promise.resolve());
    return out;
  },
};

const HEADERS = [
  'x-edgeway-request-id',
  'cf-aig-log-id',
  'x-edgeway-overhead-ms',
  'x-edgeway-cache',
  'cf-aig-cache-status',
  'x-edgeway-target',
  'x-edgeway-attempts',
  'x-edgeway-upstream-request-id',
];
