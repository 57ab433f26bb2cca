// Unit tests for the guardrails-turns bench's pure parts: turn assembly (N tool calls answered by N tool
// messages with matching ids), seeded sampling, reading the gateway's answer, and the micro-benchmark's
// fixed-size tool-result documents.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  callId,
  controlBody,
  drawTurns,
  judgeAnswer,
  prng,
  sampleIndices,
  toolItem,
  turnBody,
} from '../lib/agent-turns.mjs';
import { DOCUMENT_FORMATS, fillDocuments, rowsByFormat, syntheticRows } from '../lib/tool-outputs.mjs';

const rows = (label, k) =>
  Array.from({ length: k }, (_, i) => ({
    text: `${label} result ${i}`,
    label,
    domain: ['email', 'files', 'calendar'][i % 3],
  }));
const benign = rows('benign', 50);
const injected = rows('injection', 10);

test('a turn has N tool calls and N tool messages answering them, ids matching and in order', () => {
  const [turn] = drawTurns({ benign, n: 5, turns: 1, seed: 3 });
  const body = turnBody({ ...turn, turn: 7 }, { model: 'mock/mock-small' });
  const [user, assistant, ...tools] = body.messages;
  assert.equal(user.role, 'user');
  assert.equal(assistant.role, 'assistant');
  assert.equal(assistant.tool_calls.length, 5);
  assert.equal(tools.length, 5);
  assistant.tool_calls.forEach((call, k) => {
    assert.equal(call.id, callId(7, k));
    assert.equal(call.type, 'function');
    assert.equal(typeof JSON.parse(call.function.arguments), 'object');
    assert.equal(tools[k].role, 'tool');
    assert.equal(tools[k].tool_call_id, call.id);
    assert.equal(tools[k].content, turn.results[k].text);
  });
  // Every tool called is offered, once.
  const offered = body.tools.map((t) => t.function.name);
  assert.deepEqual(offered, [...new Set(assistant.tool_calls.map((c) => c.function.name))]);
  assert.equal(body.model, 'mock/mock-small');
  assert.deepEqual(body.mock, { latency_ms: 0, tokens: 8 });
});

test('tool call ids are unique within a turn and across turns', () => {
  const turns = drawTurns({ benign, n: 20, turns: 4, seed: 1 });
  const ids = turns.flatMap((t) => turnBody(t, { model: 'm' }).messages[1].tool_calls.map((c) => c.id));
  assert.equal(new Set(ids).size, 80);
});

test('sampling is seeded: the same seed draws the same turns, another seed others', () => {
  const a = drawTurns({ benign, injected, n: 5, turns: 10, seed: 99 });
  const b = drawTurns({ benign, injected, n: 5, turns: 10, seed: 99 });
  const c = drawTurns({ benign, injected, n: 5, turns: 10, seed: 100 });
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
});

test('a turn draws N distinct benign results', () => {
  for (const t of drawTurns({ benign, n: 20, turns: 10, seed: 5 })) {
    assert.equal(t.results.length, 20);
    assert.equal(new Set(t.results).size, 20);
    assert.ok(t.results.every((r) => r.label === 'benign'));
    assert.equal(t.injectedAt, null);
  }
});

test('an injected turn carries exactly one injected result, where injectedAt says', () => {
  const positions = new Set();
  for (const t of drawTurns({ benign, injected, n: 5, turns: 50, seed: 5 })) {
    assert.equal(t.results.filter((r) => r.label === 'injection').length, 1);
    assert.equal(t.results[t.injectedAt].label, 'injection');
    positions.add(t.injectedAt);
  }
  assert.equal(positions.size, 5); // every position is drawn somewhere in 50 turns
});

test('sampleIndices draws distinct indices below the size, and refuses to draw more than there are', () => {
  const picked = sampleIndices(prng(2), 10, 10);
  assert.deepEqual(
    [...picked].sort((x, y) => x - y),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
  assert.throws(() => sampleIndices(prng(2), 3, 4), /cannot draw 4/);
});

test('prng stays in [0, 1) and repeats for a seed', () => {
  const r = prng(42);
  const xs = Array.from({ length: 1000 }, () => r());
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  assert.equal(prng(42)(), xs[0]);
});

test('the control is the user task alone', () => {
  const body = controlBody('email', { model: 'm' });
  assert.deepEqual(
    body.messages.map((m) => m.role),
    ['user'],
  );
  assert.equal(
    body.messages[0].content,
    turnBody({ turn: 0, results: [benign[0]] }, { model: 'm' }).messages[0].content,
  );
});

test('toolItem reads the quarantine item of x-edgeway-guardrails, ids, count and the unlisted rest', () => {
  const header = 'pii:request:redact:1, injection:tool:quarantine:11;call_1_2=0.9731;call_1_4=0.8812;+9';
  assert.deepEqual(toolItem(header), { count: 11, ids: ['call_1_2', 'call_1_4'], unlisted: 9 });
  assert.deepEqual(toolItem('injection:tool:block:1;call_0_0=0.99', 'block'), {
    count: 1,
    ids: ['call_0_0'],
    unlisted: 0,
  });
  assert.equal(toolItem('injection:request:flag:1'), null);
  assert.equal(toolItem(null), null);
});

test('judgeAnswer tells a guardrail refusal from an error, and catches an injected turn by refusal or by id', () => {
  const refused = {
    status: 400,
    body: JSON.stringify({ error: { code: 'guardrail_blocked' } }),
    header: null,
  };
  assert.deepEqual(judgeAnswer(refused), {
    blocked: true,
    error: false,
    quarantined: 0,
    caught: false,
    unlisted: false,
  });
  assert.equal(judgeAnswer(refused, { injectedId: 'call_0_1' }).caught, true);
  const bad = { status: 400, body: JSON.stringify({ error: { code: 'invalid_request' } }), header: null };
  assert.deepEqual(judgeAnswer(bad), {
    blocked: false,
    error: true,
    quarantined: 0,
    caught: false,
    unlisted: false,
  });
  const ok = { status: 200, body: '{}', header: 'injection:tool:quarantine:1;call_0_1=0.9' };
  assert.equal(judgeAnswer(ok, { injectedId: 'call_0_1' }).caught, true);
  assert.equal(judgeAnswer(ok, { injectedId: 'call_0_2' }).caught, false);
  assert.equal(judgeAnswer(ok).quarantined, 1);
  // A header that lists 8 of 11: an injected result not among them is undetermined, not missed.
  const listed = Array.from({ length: 8 }, (_, k) => `;call_0_${k}=0.9`).join('');
  const truncated = { status: 200, body: '{}', header: `injection:tool:quarantine:11${listed};+3` };
  assert.deepEqual(judgeAnswer(truncated, { injectedId: 'call_0_15' }), {
    blocked: false,
    error: false,
    quarantined: 11,
    caught: false,
    unlisted: true,
  });
  assert.equal(judgeAnswer(truncated, { injectedId: 'call_0_3' }).unlisted, false);
});

test('documents are whole rows joined as their format joins them, within the size and filled', () => {
  const source = syntheticRows((n, seed) => `word${seed} `.repeat(Math.ceil(n / 6)).slice(0, n));
  for (const format of Object.keys(DOCUMENT_FORMATS)) {
    const docs = fillDocuments(source[format], format, { chars: 4_000, count: 6 });
    assert.equal(docs.length, 6);
    for (const doc of docs) {
      assert.ok(doc.length <= 4_000 && doc.length >= 3_800, `${format}: ${doc.length}`);
      if (format === 'json') assert.ok(Array.isArray(JSON.parse(doc)));
    }
  }
  assert.throws(() => fillDocuments(['tiny'], 'text', { chars: 4_000, count: 1 }), /cannot fill/);
  assert.throws(() => fillDocuments(['x'], 'xml'), /unknown document format/);
});

test('rowsByFormat keeps the benign rows of the document formats', () => {
  const grouped = rowsByFormat([
    { text: 'a', label: 'benign', format: 'json' },
    { text: 'b', label: 'injection', format: 'json' },
    { text: 'c', label: 'benign', format: 'csv' },
    { text: 'd', label: 'benign', format: 'yaml' },
  ]);
  assert.deepEqual(grouped, { json: ['a'], 'python-repr': [], yaml: ['d'], text: [] });
});
