/**
 * What the gateway sends providers, checked against their published descriptions: every corpus
 * request (./corpus.ts) through every described upstream codec's `encodeRequest` must fit the
 * provider's request schema (./contracts.mjs), or be refused with a 400 where the corpus says the
 * format cannot carry it. The Responses corpus (./responses-corpus.ts), read by the Responses client codec and
 * written again by its upstream codec, must fit OpenAI's Responses request too (how the gateway sends
 * what the other formats' clients ask of a Responses upstream is covered by the chat corpus; this adds
 * custom tools, reasoning items and hosted tools). Departures listed in ./known-mismatches.mjs are
 * allowed, and must still occur.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, MESSAGES } from './contracts.mjs';
import { KNOWN_MISMATCHES, mismatchLedger } from './known-mismatches.mjs';
import { loadSubjects } from './load.mjs';
import { DESCRIBED, encodeContext, requestMessage } from './targets.mjs';

const { CLIENT_CODECS, UPSTREAM_CODECS, CHAT_CASES, EMBEDDINGS_CASES, RESPONSES_CASES } =
  await loadSubjects();
const ledger = mismatchLedger();

function encode(codec, request, format) {
  try {
    return { body: codec.encodeRequest(request, encodeContext(format)) };
  } catch (error) {
    return { error };
  }
}

for (const format of DESCRIBED) {
  describe(`${format}: encodeRequest fits the published description`, () => {
    for (const { name, request, refusedBy } of CHAT_CASES) {
      it(name, () => {
        const { body, error } = encode(UPSTREAM_CODECS[format], request, format);
        if (refusedBy[format]) {
          assert.equal(error?.status, 400, `expected a 400 (${refusedBy[format]}), got ${error ?? 'a body'}`);
          return;
        }
        if (error) throw error;
        const message = requestMessage(MESSAGES[format], request.stream);
        const errors = ledger.unexplained(format, message, check(MESSAGES[format][message], body));
        assert.deepEqual(errors, [], `${JSON.stringify(body)}\ndeparts from ${MESSAGES[format][message]}`);
      });
    }
    const embeddings = UPSTREAM_CODECS[format].embeddings;
    if (!embeddings || !MESSAGES[format].embeddingsRequest) return;
    for (const { name, request } of EMBEDDINGS_CASES) {
      it(`embeddings: ${name}`, () => {
        const body = embeddings.encodeRequest(request, encodeContext(format));
        const errors = ledger.unexplained(
          format,
          'embeddingsRequest',
          check(MESSAGES[format].embeddingsRequest, body),
        );
        assert.deepEqual(errors, [], JSON.stringify(body));
      });
    }
  });
}

describe('responses: requests of the Responses corpus, read and written again for a Responses upstream, fit', () => {
  const client = CLIENT_CODECS.responses;
  for (const { name, body } of RESPONSES_CASES) {
    it(name, () => {
      const sent = UPSTREAM_CODECS.responses.encodeRequest(
        client.decodeRequest(structuredClone(body)),
        encodeContext('responses'),
      );
      const message = requestMessage(MESSAGES.responses, body.stream === true);
      const errors = ledger.unexplained('responses', message, check(MESSAGES.responses[message], sent));
      assert.deepEqual(errors, [], `${JSON.stringify(sent)}\ndeparts from ${MESSAGES.responses[message]}`);
    });
  }
});

describe('known mismatches', () => {
  for (const entry of KNOWN_MISMATCHES.filter((item) => item.scope === 'requests')) {
    it(`${entry.id} still occurs (strike it from known-mismatches.mjs once fixed)`, () => {
      assert.ok(ledger.met().has(entry.id), `${entry.id} was not met: the departure is gone`);
    });
  }
});
