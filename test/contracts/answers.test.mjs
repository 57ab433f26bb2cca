/**
 * What the mock LLM answers, checked against the providers' published descriptions, so the mock
 * and the codecs cannot share a misunderstanding: for every corpus request a described codec
 * encodes, the mock's answer (run in-process, ./exchange.mjs) must fit the provider's response
 * schema, or each stream event its event schema (a Responses stream its framing too,
 * ./responses-stream.mjs), and the codec's `decodeResponse` must read it.
 * Also the mock's embeddings, token counts and error envelopes where the description has them
 * (OpenAI's and Anthropic's envelopes, Bedrock's exceptions; the Gemini protos do not describe its errors).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bedrockError, check, eventPayload, MESSAGES, streamEventRef } from './contracts.mjs';
import { exchange } from './exchange.mjs';
import { KNOWN_MISMATCHES, mismatchLedger } from './known-mismatches.mjs';
import { loadSubjects } from './load.mjs';
import { framingFaults } from './responses-stream.mjs';
import { DESCRIBED, encodeContext, MODELS } from './targets.mjs';

const subjects = await loadSubjects();
const { UPSTREAM_CODECS, CHAT_CASES, EMBEDDINGS_CASES } = subjects;
const ledger = mismatchLedger();

function assertFits(format, message, ref, value) {
  assert.ok(ref, `${format}: no schema for ${message}`);
  const errors = ledger.unexplained(format, message, check(ref, value));
  assert.deepEqual(errors, [], `${JSON.stringify(value)}\ndeparts from ${ref}`);
}

for (const format of DESCRIBED) {
  const codec = UPSTREAM_CODECS[format];
  describe(`${format}: the mock's answers fit the published description`, () => {
    for (const { name, request, refusedBy, forgedFor } of CHAT_CASES) {
      if (refusedBy[format]) continue;
      it(name, async () => {
        const body = codec.encodeRequest(request, encodeContext(format));
        const answer = await exchange(subjects, format, body, {
          model: MODELS[format],
          stream: request.stream,
        });
        if (forgedFor?.includes(format)) {
          // The signatures reached the provider where it checks them, and it refused them.
          assert.equal(answer.status, 400, JSON.stringify(answer.json));
          assert.match(JSON.stringify(answer.json), /signature/i);
          return;
        }
        assert.equal(answer.status, 200, JSON.stringify(answer.json));
        if (!request.stream) {
          assertFits(format, 'chatResponse', MESSAGES[format].chatResponse, answer.json);
          assert.ok(codec.decodeResponse(answer.json).content.length > 0);
          return;
        }
        if (format === 'responses') assert.deepEqual(framingFaults(answer.events), []);
        const events = answer.events.filter((event) => event.data !== '[DONE]');
        assert.ok(events.length > 1, 'a stream of events');
        for (const event of events) {
          const type = event.event ?? event.data?.type ?? 'data';
          assertFits(
            format,
            `streamEvent:${type}`,
            streamEventRef(format, event),
            eventPayload(format, event.data),
          );
        }
      });
    }
    if (MESSAGES[format].embeddingsResponse) {
      for (const { name, request } of EMBEDDINGS_CASES) {
        it(`embeddings: ${name}`, async () => {
          const body = codec.embeddings.encodeRequest(request, encodeContext(format));
          const answer = await exchange(subjects, format, body, {
            model: MODELS[format],
            endpoint: 'embeddings',
          });
          assert.equal(answer.status, 200, JSON.stringify(answer.json));
          assertFits(format, 'embeddingsResponse', MESSAGES[format].embeddingsResponse, answer.json);
          const read = codec.embeddings.decodeResponse(answer.json, MODELS[format], request);
          assert.equal(read.vectors.length, request.inputs.length);
        });
      }
    }
    if (MESSAGES[format].error) {
      it('error envelope (no credential)', async () => {
        const body = codec.encodeRequest(CHAT_CASES[0].request, encodeContext(format));
        const answer = await exchange(subjects, format, body, { model: MODELS[format], keyless: true });
        assert.equal(answer.status, 401);
        assertFits(format, 'error', MESSAGES[format].error, answer.json);
      });
    }
  });
}

describe("bedrock: the mock's error answers are the operation's exceptions", () => {
  it('an empty conversation: ValidationException', async () => {
    const answer = await exchange(subjects, 'bedrock', { messages: [] }, { model: MODELS.bedrock });
    const errorType = answer.headers.get('x-amzn-errortype') ?? '';
    const exception = bedrockError('Converse', errorType);
    assert.ok(exception, `x-amzn-errortype ${errorType} is not one of Converse's errors`);
    assert.equal(answer.status, exception.status);
    assertFits('bedrock', 'error', exception.ref, answer.json);
  });
});

describe("anthropic: the mock's token count fits the published description", () => {
  it('count_tokens', async () => {
    const { model, max_tokens, ...body } = UPSTREAM_CODECS.anthropic.encodeRequest(
      CHAT_CASES[0].request,
      encodeContext('anthropic'),
    );
    const request = { model, ...body };
    assertFits('anthropic', 'countTokensRequest', MESSAGES.anthropic.countTokensRequest, request);
    const answer = await exchange(subjects, 'anthropic', request, { model, endpoint: 'countTokens' });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assertFits('anthropic', 'countTokensResponse', MESSAGES.anthropic.countTokensResponse, answer.json);
  });
});

describe('known mismatches', () => {
  for (const entry of KNOWN_MISMATCHES.filter((item) => item.scope === 'answers')) {
    it(`${entry.id} still occurs (strike it from known-mismatches.mjs once fixed)`, () => {
      assert.ok(ledger.met().has(entry.id), `${entry.id} was not met: the departure is gone`);
    });
  }
});
