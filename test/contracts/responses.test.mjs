/**
 * The Responses API (`POST /v1/responses`) against OpenAI's published description: every request
 * of the Responses corpus (./responses-corpus.ts) goes through the gateway's own codec step
 * (src/pipeline/route/translate.ts `outbound`) to each described upstream format, and
 *
 * - the body the provider is sent fits its request schema: translated, or for a Responses upstream
 *   the same-format body (the client's, with what the gateway adds);
 * - the mock's answer (in-process, ./exchange.mjs) fits that provider's answer or event schemas;
 * - what the client gets back fits the Response object, or, streamed, each event its own event
 *   schema and the stream its framing (./responses-stream.mjs): the translation of the provider's
 *   answer, or from a Responses upstream the answer relayed as it came; streams also with the
 *   guardrails rewriting every text (and holding some back), which must keep them in shape.
 *
 * Also: a translated JSON answer replayed as a stream (how a cached answer is served); a tool turn
 * whose answer (reasoning with its signature, the function call) goes back as the next turn's input,
 * sent by the client or rebuilt by the gateway from the stored answer (`previous_response_id`), which
 * must fit the request description and be taken by the provider that verifies the signature; a
 * stored response's page of input items; the stream's error event and the gateway's error envelope.
 * Departures listed in ./known-mismatches.mjs with scope `responses` are allowed, and must still
 * occur. One file, longer than most, because every check here runs on the one path through the
 * gateway that `throughGateway` drives.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, eventPayload, MESSAGES, responsesEvent, streamEventRef } from './contracts.mjs';
import { exchange, parseSse } from './exchange.mjs';
import { KNOWN_MISMATCHES, mismatchLedger } from './known-mismatches.mjs';
import { loadSubjects } from './load.mjs';
import { framingFaults } from './responses-stream.mjs';
import { DESCRIBED, encodeContext, MODELS, requestMessage } from './targets.mjs';

const subjects = await loadSubjects();
const { CLIENT_CODECS, RESPONSES_CASES, RESPONSES_TOOL_TURN, outbound, parseProxyRequest } = subjects;
const { continueConversation, itemPage, recordOf, streamGuard } = subjects;
const client = CLIENT_CODECS.responses;
const ledger = mismatchLedger();
const RESPONSE_ID = 'resp_contract0001';

function assertFits(format, message, ref, value) {
  assert.ok(ref, `${format}: no schema for ${message}`);
  const errors = ledger.unexplained(format, message, check(ref, value));
  assert.deepEqual(errors, [], `${JSON.stringify(value)}\ndeparts from ${ref}`);
}

/** Each event of a Responses stream fits its type's schema, and the stream its framing. */
function assertResponsesStream(events) {
  assert.deepEqual(framingFaults(events), [], JSON.stringify(events.map((event) => event.data)));
  for (const { data } of events)
    assertFits('responses', `streamEvent:${data.type}`, responsesEvent(data.type), data);
}

/** The gateway's codec step for a Responses request to an upstream of `format`, as the pipeline runs it. */
function gatewayStep(body, format) {
  const request = parseProxyRequest('responses', structuredClone(body));
  const target = {
    endpoint: 'responses',
    model: MODELS[format],
    stream: request.stream,
    url: '',
    headers: new Headers(),
    format,
  };
  try {
    return { request, step: outbound(request, target, encodeContext(format), RESPONSE_ID) };
  } catch (error) {
    return { request, error };
  }
}

/**
 * A stream as the gateway relays it: each upstream event through `observer` (translating, or
 * observing a same-format stream), its bytes (or the event itself, when forwarded) read back as events.
 */
function relayStream(observer, events) {
  const text = new TextDecoder();
  let out = '';
  for (const { event, raw } of events) {
    const verdict = observer.observe({ event, data: raw });
    if (verdict === 'forward') out += `${event ? `event: ${event}\n` : ''}data: ${raw}\n\n`;
    else if (verdict !== 'drop') {
      assert.ok(verdict instanceof Uint8Array, `the gateway answered ${JSON.stringify(verdict)} to ${raw}`);
      out += text.decode(verdict, { stream: true });
    }
  }
  assert.ok(observer.done, 'the gateway saw the end of the stream');
  return parseSse(out);
}

/**
 * The guardrails' rewriting of an answer's texts (src/guardrails/stream-guard.ts) with a transform
 * that changes every text (upper case) and holds its last characters back until the text ends.
 */
function rewritingGuard() {
  const transform = () => {
    let held = '';
    return {
      push(text) {
        const all = held + text.toUpperCase();
        held = all.slice(-3);
        return all.slice(0, -3);
      },
      flush() {
        const out = held;
        held = '';
        return out;
      },
    };
  };
  return streamGuard('responses', transform, { verdicts: [], blocked: null });
}

/** The message texts of a stream's terminal response. */
const finalTexts = (events) =>
  events
    .at(-1)
    .data.response.output.filter((item) => item.type === 'message')
    .flatMap((item) => item.content.map((part) => part.text ?? part.refusal));

/** The client's stream from an upstream's `events`: relayed as they came, or translated; guarded or not. */
function clientStream(step, events, rewriter) {
  const observer = step.translation
    ? step.translation.streamObserver({ capture: 0, rewriter })
    : client.observer({ stripUsage: false, rewriter });
  return relayStream(observer, events);
}

describe('responses: the corpus itself fits the published request description', () => {
  for (const { name, body } of RESPONSES_CASES) {
    it(name, () => {
      const message = requestMessage(MESSAGES.responses, body.stream === true);
      assertFits('responses', `corpus:${message}`, MESSAGES.responses[message], body);
    });
  }
});

/**
 * One request through the gateway to an upstream of `format` and back, every message on the way
 * checked: the client's answer (the Response object, or the stream's events), or null when the
 * gateway refused the request or the provider refused forged reasoning, as `expect` says it must.
 */
async function throughGateway(body, format, expect = {}) {
  const sameFormat = format === 'responses';
  const { request, step, error } = gatewayStep(body, format);
  if (expect.refused) {
    assert.equal(error?.status, 400, `expected a 400 (${expect.refused}), got ${error ?? 'a body'}`);
    return null;
  }
  if (error) throw error;
  assert.equal(step.translation === null, sameFormat, 'translated exactly when the formats differ');
  const sent = JSON.parse(step.body);
  const message = requestMessage(MESSAGES[format], request.stream);
  assertFits(format, message, MESSAGES[format][message], sent);

  const answer = await exchange(subjects, format, sent, { model: MODELS[format], stream: request.stream });
  if (expect.forged) {
    // The reasoning reached the provider that checks it, and it refused it.
    assert.equal(answer.status, 400, JSON.stringify(answer.json));
    assertFits(format, 'error', MESSAGES[format].error, answer.json);
    return null;
  }
  assert.equal(answer.status, 200, JSON.stringify(answer.json ?? answer.events));
  if (!request.stream) {
    assertFits(format, 'chatResponse', MESSAGES[format].chatResponse, answer.json);
    const relayed = sameFormat ? answer.json : step.translation.json(answer.json).body;
    assertFits('responses', 'chatResponse', MESSAGES.responses.chatResponse, relayed);
    if (!sameFormat) assertResponsesStream(parseSse(client.replay(relayed, false)));
    return relayed;
  }
  for (const event of answer.events.filter((e) => e.data !== '[DONE]')) {
    const type = event.event ?? event.data?.type ?? 'data';
    assertFits(
      format,
      `streamEvent:${type}`,
      streamEventRef(format, event),
      eventPayload(format, event.data),
    );
  }
  const events = clientStream(step, answer.events);
  assertResponsesStream(events);
  // Guardrails that rewrite the answer keep every event in shape, and its texts rewritten everywhere.
  const guarded = clientStream(step, answer.events, rewritingGuard());
  assertResponsesStream(guarded);
  assert.deepEqual(
    finalTexts(guarded),
    finalTexts(events).map((text) => text.toUpperCase()),
  );
  return events;
}

for (const format of DESCRIBED) {
  describe(`responses → ${format}: the body sent, the mock's answer and the gateway's answer fit`, () => {
    for (const { name, body, refusedBy, forgedFor } of RESPONSES_CASES) {
      it(name, async () => {
        await throughGateway(body, format, {
          refused: refusedBy[format],
          forged: forgedFor.includes(format),
        });
      });
    }
  });
}

/** The tool turn through the gateway to `format`: its answer and the output of the call it made. */
async function toolTurn(body, format) {
  const answer = await throughGateway(body, format);
  const call = answer.output.find((item) => item.type === 'function_call');
  assert.ok(call, `a function call in ${JSON.stringify(answer.output)}`);
  return { answer, output: { type: 'function_call_output', call_id: call.call_id, output: '18 C, clear' } };
}

/** The next turn fits the request description and is answered with text through `format`. */
async function assertTaken(next, format) {
  assertFits('responses', 'corpus:chatRequest', MESSAGES.responses.chatRequest, next);
  // Its reasoning, signed by the provider and carried in encrypted_content, is verified there.
  const second = await throughGateway(next, format);
  assert.ok(
    second.output.some((item) => item.type === 'message'),
    JSON.stringify(second.output),
  );
}

describe("responses: an answer's output items, sent back by the client as the next turn's input, are taken", () => {
  for (const format of DESCRIBED) {
    it(format, async () => {
      const { answer, output } = await toolTurn(RESPONSES_TOOL_TURN, format);
      const input = [...RESPONSES_TOOL_TURN.input, ...answer.output, output];
      await assertTaken({ ...RESPONSES_TOOL_TURN, input }, format);
    });
  }
});

describe('responses: a stored answer continued by previous_response_id (the conversation the gateway rebuilds) is taken', () => {
  const { store, ...stored } = RESPONSES_TOOL_TURN;
  for (const format of DESCRIBED) {
    it(format, async () => {
      const { answer, output } = await toolTurn(stored, format);
      const record = storedRecord(stored, answer);
      const { body } = continueConversation(record, {
        ...stored,
        previous_response_id: answer.id,
        input: [output],
      });
      await assertTaken(body, format);
    });
  }
});

/** The record the gateway keeps of `answer` to the request `body` (src/core/conversation.ts). */
function storedRecord(body, answer) {
  return recordOf({
    id: answer.id,
    tenantId: 'tenant-contract',
    keyId: 'key-contract',
    model: 'contract-model',
    createdAt: 0,
    expiresAt: 1,
    body,
    context: 0,
    response: answer,
  });
}

describe("responses: a stored response's input items (GET /v1/responses/{id}/input_items) fit", () => {
  for (const { name, body } of RESPONSES_CASES) {
    it(name, () => {
      const record = storedRecord(body, { id: RESPONSE_ID, output: [] });
      for (const order of ['desc', 'asc']) {
        const page = itemPage(record.input, { limit: 100, order, after: null });
        assertFits('responses', 'inputItems', MESSAGES.responses.inputItems, page);
      }
    });
  }
});

describe('responses: the gateway’s own errors fit the published description', () => {
  it("a stream's error event", () => {
    const encoder = client.streamEncoder({ includeUsage: false });
    const frame = encoder.errorFrame('The upstream stream failed.', 'server_error');
    assert.equal(frame.event, 'error');
    assertFits('responses', 'streamEvent:error', responsesEvent('error'), frame.data);
  });
  it("an upstream's error in the middle of a translated stream", () => {
    const request = client.decodeRequest({ model: 'contract-model', input: 'Hello there.', stream: true });
    const context = {
      request,
      body: { model: 'contract-model', input: 'Hello there.' },
      responseId: RESPONSE_ID,
    };
    const encoder = client.streamEncoder({ includeUsage: false, context });
    const frames = [
      { type: 'start', id: 'msg_upstream', model: 'claude-sonnet-4-5' },
      { type: 'text', text: 'Half an ans' },
      { type: 'error', message: 'Overloaded', errorType: 'overloaded_error' },
    ].flatMap((event) => encoder.encode(event));
    assertResponsesStream(frames.map(({ event, data }) => ({ event, data })));
  });
  it('the error envelope', () => {
    const error = subjects.badRequest("Invalid value for 'input'.", 'input', 'invalid_value');
    assertFits('responses', 'error', MESSAGES.responses.error, client.errorBody(error));
  });
});

describe('known mismatches', () => {
  for (const entry of KNOWN_MISMATCHES.filter((item) => item.scope === 'responses')) {
    it(`${entry.id} still occurs (strike it from known-mismatches.mjs once fixed)`, () => {
      assert.ok(ledger.met().has(entry.id), `${entry.id} was not met: the departure is gone`);
    });
  }
});
