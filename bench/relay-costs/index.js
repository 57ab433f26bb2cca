// Ways a Worker can put an upstream stream in front of its client, one per `RELAY` var, so
// bench/relay-costs/run.mjs can charge each to the runtime with no gateway code around it.
// Each is the least code that does what its name says; none frames or parses events.
const MODES = {
  /** The upstream's response returned untouched (bench/floor): the runtime moves every byte. */
  native: (res) => res,
  /** Piped into a native IdentityTransformStream: the runtime still moves the bytes, and the Worker could append. */
  pipe: (res) => {
    const { readable, writable } = new IdentityTransformStream();
    res.body.pipeTo(writable).catch(() => {});
    return new Response(readable, res);
  },
  /** Teed: one branch returned untouched, the other read chunk by chunk in JavaScript (observed, not relayed). */
  tee: (res) => {
    const [client, side] = res.body.tee();
    drain(side.getReader());
    return new Response(client, res);
  },
  /** Teed: one branch piped into an IdentityTransformStream (so the Worker could append), the other read in JavaScript. */
  'tee-pipe': (res) => {
    const [client, side] = res.body.tee();
    const { readable, writable } = new IdentityTransformStream();
    client.pipeTo(writable).catch(() => {});
    drain(side.getReader());
    return new Response(readable, res);
  },
  /** Every chunk read in JavaScript and written into an IdentityTransformStream (bench/floor-relay, Edgeway's shape). */
  loop: (res) => {
    const { readable, writable } = new IdentityTransformStream();
    const reader = res.body.getReader();
    const writer = writable.getWriter();
    (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return writer.close();
        await writer.write(value);
      }
    })().catch(() => reader.cancel().catch(() => {}));
    return new Response(readable, res);
  },
  /** Every chunk read in JavaScript and enqueued into a JavaScript ReadableStream the runtime pulls from. */
  'js-stream': (res) => {
    const reader = res.body.getReader();
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: () => reader.cancel(),
    });
    return new Response(body, res);
  },
  /** Through a JavaScript TransformStream whose transform only passes each chunk on. */
  transform: (res) =>
    new Response(
      res.body.pipeThrough(new TransformStream({ transform: (chunk, c) => c.enqueue(chunk) })),
      res,
    ),
};

function drain(reader) {
  (async () => {
    for (;;) if ((await reader.read()).done) return;
  })().catch(() => {});
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const res = await fetch(new Request(env.UPSTREAM_URL + url.pathname + url.search, request));
    const mode = MODES[env.RELAY];
    if (!mode) return new Response(`unknown RELAY ${env.RELAY}`, { status: 500 });
    return res.body ? mode(res) : res;
  },
};
