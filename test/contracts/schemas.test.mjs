/**
 * The converted descriptions refuse what the providers refuse: for each provider, a minimal
 * valid request fits, and the same request with an unknown field, a field of the wrong type or a
 * required field left out does not. This guards the converters (./schemas/) against turning a
 * description into a schema that lets everything through.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bedrockEvent, check, MESSAGES } from './contracts.mjs';

const MINIMAL = {
  openai: {
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] },
    unknown: (b) => ({ ...b, top_k: 40 }),
    wrongType: (b) => ({ ...b, temperature: 'hot' }),
    missing: ({ messages, ...b }) => b,
  },
  anthropic: {
    body: { model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] },
    unknown: (b) => ({ ...b, n: 2 }),
    wrongType: (b) => ({ ...b, max_tokens: '16' }),
    missing: ({ max_tokens, ...b }) => b,
  },
  gemini: {
    body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
    unknown: (b) => ({ ...b, temperature: 0.5 }),
    wrongType: (b) => ({ ...b, generationConfig: { maxOutputTokens: 'many' } }),
    missing: () => ({ generationConfig: { maxOutputTokens: 16 } }),
  },
  bedrock: {
    body: { messages: [{ role: 'user', content: [{ text: 'Hi' }] }] },
    unknown: (b) => ({ ...b, max_tokens: 16 }),
    wrongType: (b) => ({ ...b, inferenceConfig: { maxTokens: '16' } }),
    missing: () => ({ messages: [{ role: 'user' }] }),
  },
};

for (const [provider, { body, ...broken }] of Object.entries(MINIMAL)) {
  describe(`${provider}: the converted request schema`, () => {
    const ref = MESSAGES[provider].chatRequest;
    it('accepts a minimal request', () => assert.deepEqual(check(ref, body), []));
    for (const [how, change] of Object.entries(broken)) {
      it(`refuses it with ${how === 'unknown' ? 'an unknown field' : how === 'wrongType' ? 'a field of the wrong type' : 'a required field left out'}`, () => {
        assert.notDeepEqual(check(ref, change(body)), []);
      });
    }
  });
}

describe('a union member holds exactly one of its fields', () => {
  it('gemini: a Part is text or inline data, not both', () => {
    const part = { text: 'Hi', inlineData: { mimeType: 'image/png', data: 'AAAA' } };
    assert.notDeepEqual(
      check(MESSAGES.gemini.chatRequest, { contents: [{ role: 'user', parts: [part] }] }),
      [],
    );
  });
  it('bedrock: a content block is text or an image, not both', () => {
    const block = { text: 'Hi', image: { format: 'png', source: { bytes: 'AAAA' } } };
    assert.notDeepEqual(
      check(MESSAGES.bedrock.chatRequest, { messages: [{ role: 'user', content: [block] }] }),
      [],
    );
  });
  it('bedrock: a stream event type the model does not list has no schema', () => {
    assert.equal(bedrockEvent('thoughtBubble'), null);
  });
});
