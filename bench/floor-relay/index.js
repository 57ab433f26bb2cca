// The relay floor: the least a Worker gateway can do and still see what it relays.
// A gateway that settles budgets on real usage must read every answer: a JSON body
// is read whole and parsed once (where the usage is), and a stream's chunks pass
// through JavaScript (read from the upstream, written on to the client) so its usage
// chunk and its end can be seen. Nothing else: no framing, no parsing of events, no
// keys, limits or logs. Set beside bench/floor (which returns the upstream's response
// untouched and so never sees a byte), it measures what the runtime charges for
// putting JavaScript on the response path at all, apart from what a gateway does there.
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const res = await fetch(new Request(env.UPSTREAM_URL + url.pathname + url.search, request));
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
