// The relay floor's request step, shared with bench/guarantees: the body read whole, parsed once and
// serialised again into a request of the relay's own, as a gateway that routes on the body's model must.

/** The client's JSON body, read and parsed once, sent on as a request of the relay's own. */
export async function ownRequest(request) {
  const text = await request.text();
  let body = text;
  try {
    body = JSON.stringify(JSON.parse(text));
  } catch {}
  return {
    method: request.method,
    headers: {
      'content-type': request.headers.get('content-type') ?? 'application/json',
      authorization: request.headers.get('authorization') ?? '',
    },
    body,
  };
}
