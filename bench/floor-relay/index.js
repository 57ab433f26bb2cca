// The relay floor: the least a Worker gateway can do and still see what it routes and relays.
// A gateway that routes on the body's model and settles budgets on real usage must read both
// ends: the request body is read whole and parsed once (where the model is) and sent on as the
// gateway's own request (its own credentials, the body serialised again); a JSON answer is read
// whole and parsed once (where the usage is); a stream's chunks pass through JavaScript (read
// from the upstream, written on to the client) so its usage chunk and its end can be seen.
// Nothing else: no keys, limits, routing tables, framing, parsing of events or logs. Set beside
// bench/floor (which forwards the request and returns the upstream's response untouched, so it
// never sees a byte), it measures what the runtime charges any gateway for reading both ends,
// apart from what a gateway does with them.
import { ownRequest } from './own-request.mjs';

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const upstream = env.UPSTREAM_URL + url.pathname + url.search;
    const res = request.body
      ? await fetch(upstream, await ownRequest(request))
      : await fetch(upstream, request);
    if (!res.body) return res;
    if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const text = await res.text();
      try {
        JSON.parse(text);
      } catch {}
      return new Response(text, res);
    }
    const { readable, writable } = new IdentityTransformStream();
    const reader = res.body.getReader();
    const writer = writable.getWriter();
    const relay = async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return writer.close();
        await writer.write(value);
      }
    };
    relay().catch(() => reader.cancel().catch(() => {}));
    return new Response(readable, res);
  },
};
