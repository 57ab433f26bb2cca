// The floor: the least any Worker gateway can do. It forwards the request to the
// upstream with fetch and returns the response untouched (streams stay streams).
// The bench measures Edgeway's overhead against this, not just against the mock.
export default {
  fetch(request, env) {
    const url = new URL(request.url);
    return fetch(new Request(env.UPSTREAM_URL + url.pathname + url.search, request));
  },
};
