// The Node load generator against a local HTTP server: what it counts and from when it times.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { headersOf, markerScan, runNodeJob } from '../lib/node-loadgen.mjs';

let server;
let base;
let gateOpensAt = 0;

before(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    if (req.url === '/gated') {
      // Holds every reply until the gate opens, like a server that stalls.
      setTimeout(() => res.end('ok'), Math.max(0, gateOpensAt - Date.now()));
    } else if (req.url === '/sse') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const timer = setInterval(() => {
        if (n < 5) res.write(`data: {"n":${n++}}\n\n`);
        else {
          clearInterval(timer);
          res.end('data: [DONE]\n\n');
        }
      }, 5);
    } else if (req.url === '/responses' || req.url === '/responses-cut') {
      // A Responses API stream: no [DONE]; its marker split across two writes, then a large last event
      // (cut inside it on /responses-cut).
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const last = `data: {"response":"${'x'.repeat(100_000)}"}\n\n`;
      const writes = [
        'event: response.created\ndata: {}\n\n',
        'event: response.output_text.delta\ndata: {}\n\nevent: response.comp',
        `leted\n${req.url === '/responses' ? last : last.slice(0, 50_000)}`,
      ];
      const next = () => {
        const w = writes.shift();
        if (writes.length === 0) return res.end(w);
        res.write(w);
        setTimeout(next, 5);
      };
      next();
    } else if (req.url === '/teapot') {
      res.writeHead(418, { 'x-edgeway-cache': 'MISS' }).end();
    } else {
      res.writeHead(200, { 'x-edgeway-cache': 'HIT', 'x-edgeway-overhead-ms': '0.5' }).end('{}');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => server.close());

test('closed mode sends exactly the requests asked for and counts headers and statuses', async () => {
  const ok = await runNodeJob({
    mode: 'closed',
    url: `${base}/`,
    body: '{}',
    concurrency: 3,
    requests: 10,
    count_headers: ['x-edgeway-cache'],
    numeric_headers: ['x-edgeway-overhead-ms'],
  });
  assert.equal(ok.samples.status.length, 10);
  assert.ok(ok.samples.status.every((s) => s === 200));
  assert.deepEqual(ok.header_counts['x-edgeway-cache'], { HIT: 10 });
  assert.deepEqual(ok.header_values['x-edgeway-overhead-ms'], Array(10).fill(0.5));
  const bad = await runNodeJob({ mode: 'closed', url: `${base}/teapot`, requests: 2 });
  assert.deepEqual(bad.errors, { 'http 418': 2 });
});

test('closed mode rotates through bodies when several are given', async () => {
  const seen = [];
  const listener = (req) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => seen.push(text));
  };
  server.on('request', listener);
  await runNodeJob({ mode: 'closed', url: `${base}/`, bodies: ['a', 'b'], requests: 4 });
  server.off('request', listener);
  assert.deepEqual(seen.sort(), ['a', 'a', 'b', 'b']);
});

test('rotated headers follow the request index beside the fixed ones, as the Go generator sets them', async () => {
  const job = {
    headers: { authorization: 'Bearer k' },
    rotate_headers: { 'x-edgeway-user': ['u0', 'u1', 'u2'] },
  };
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((i) => headersOf(job, i)['x-edgeway-user']),
    ['u0', 'u1', 'u2', 'u0', 'u1'],
  );
  assert.equal(headersOf(job, 4).authorization, 'Bearer k');
  assert.deepEqual(headersOf({ rotate_headers: { 'x-edgeway-user': [] } }, 3), {});
  const seen = [];
  const listener = (req) => seen.push(req.headers['x-edgeway-user']);
  server.on('request', listener);
  await runNodeJob({ mode: 'closed', url: `${base}/`, body: '{}', requests: 4, ...job });
  server.off('request', listener);
  assert.deepEqual(seen.sort(), ['u0', 'u0', 'u1', 'u2']);
});

test('open mode keeps sending through a stall and times each request from its intended send time', async () => {
  gateOpensAt = Date.now() + 300;
  const r = await runNodeJob({ mode: 'open', url: `${base}/gated`, body: 'x', rate: 50, duration_ms: 200 });
  assert.equal(r.samples.status.length, 10);
  // Samples are recorded in completion order; their intended send times are the schedule.
  assert.deepEqual(
    [...r.samples.start_us].sort((a, b) => a - b),
    [0, 20_000, 40_000, 60_000, 80_000, 100_000, 120_000, 140_000, 160_000, 180_000],
  );
  const latencyDueAt = (us) => r.samples.lat_us[r.samples.start_us.indexOf(us)];
  // Request 0 was due at t0 and could not complete before the gate opened ~300 ms later.
  assert.ok(latencyDueAt(0) >= 250_000, `first latency ${latencyDueAt(0)} µs`);
  assert.ok(latencyDueAt(0) > latencyDueAt(180_000), 'requests due later waited less');
});

test('stream mode counts events, sees the terminator and records every gap', async () => {
  const r = await runNodeJob({
    mode: 'stream',
    url: `${base}/sse`,
    body: '{}',
    streams: 2,
    ramp_ms: 0,
    gaps: true,
  });
  assert.equal(r.streams.length, 2);
  for (const s of r.streams) {
    assert.equal(s.status, 200);
    assert.equal(s.events, 6);
    assert.equal(s.done, true);
    assert.equal(s.gaps_us.length, 5);
    assert.ok(s.first_event_us >= 0);
    assert.equal(s.max_gap_us, Math.max(...s.gaps_us));
  }
});

test("a job's done marker is found anywhere in the stream, split across reads, once its event is complete", async () => {
  const marker = 'event: response.completed';
  const job = (path, done_marker) => ({
    mode: 'stream',
    url: `${base}${path}`,
    body: '{}',
    streams: 1,
    ramp_ms: 0,
    gaps: true,
    ...(done_marker ? { done_marker } : {}),
  });
  const [whole] = (await runNodeJob(job('/responses', marker))).streams;
  assert.equal(whole.status, 200);
  assert.equal(whole.events, 3);
  assert.equal(whole.done, true);
  const [cut] = (await runNodeJob(job('/responses-cut', marker))).streams;
  assert.equal(cut.events, 2);
  assert.equal(cut.done, false, "a stream cut inside the marker's event is not complete");
  const [chatMarker] = (await runNodeJob(job('/responses'))).streams;
  assert.equal(chatMarker.done, false, 'without done_marker the terminator is [DONE]');
});

test('the marker scan reports where the marker ends in the chunk that completes it', () => {
  const scan = markerScan('abcd');
  assert.equal(scan(Buffer.from('xxab')), -1);
  assert.equal(scan(Buffer.from('cdyy')), 2);
  assert.equal(scan(Buffer.from('abcd')), -1, 'found once');
  const bytes = markerScan('abcd');
  assert.deepEqual(
    ['a', 'b', 'c', 'd'].map((c) => bytes(Buffer.from(c))),
    [-1, -1, -1, 1],
  );
});
