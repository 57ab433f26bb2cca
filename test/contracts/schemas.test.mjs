/**
 * The converted descriptions refuse what the providers refuse: for each provider, a minimal
 * valid request fits, and the same request with an unknown field, a field of the wrong type or a
 * required field left out does not. This guards the converters (./schemas/) against turning a
 * description into a schema that lets everything through. Also: each description was made from
 * the package version installed, and Bedrock's SDK forms are read as the wire's (../refresh/bedrock.mjs).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bedrockError, bedrockEvent, check, MESSAGES, responsesEvent } from './contracts.mjs';
import { installedVersion, PROVENANCE } from './specs.mjs';

const MINIMAL = {
  openai: {
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] },
    unknown: (b) => ({ ...b, top_k: 40 }),
    wrongType: (b) => ({ ...b, temperature: 'hot' }),
    missing: ({ messages, ...b }) => b,
  },
  // The Responses API requires no top-level field; an input item does.
  responses: {
    body: { model: 'gpt-4o-mini', input: 'Hi' },
    unknown: (b) => ({ ...b, top_k: 40 }),
    wrongType: (b) => ({ ...b, max_output_tokens: '16' }),
    missing: (b) => ({ ...b, input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }),
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

describe('responses: an earlier answer in the input', () => {
  const request = (item) => ({ model: 'gpt-4o-mini', input: [item, { role: 'user', content: 'And?' }] });
  const said = [{ type: 'output_text', text: 'Hi', annotations: [] }];
  it("is taken as OpenAI's conversation-state guide sends it: role and output parts, no id or status", () => {
    assert.deepEqual(
      check(MESSAGES.responses.chatRequest, request({ role: 'assistant', content: said })),
      [],
    );
  });
  it('a reasoning item without its id, as Codex sends it', () => {
    const reasoning = { type: 'reasoning', summary: [], encrypted_content: 'gAAAA' };
    assert.deepEqual(check(MESSAGES.responses.chatRequest, request(reasoning)), []);
    assert.notDeepEqual(check(MESSAGES.responses.chatRequest, request({ ...reasoning, summary: 'x' })), []);
  });
  it('only from the assistant, and only with output parts', () => {
    assert.notDeepEqual(check(MESSAGES.responses.chatRequest, request({ role: 'user', content: said })), []);
    const text = [{ type: 'text', text: 'Hi' }];
    assert.notDeepEqual(
      check(MESSAGES.responses.chatRequest, request({ role: 'assistant', content: text })),
      [],
    );
  });
});

describe('responses: the Response object and its stream events', () => {
  const response = {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: null,
    model: 'gpt-4o-mini',
    output: [
      {
        id: 'msg_1',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hi', annotations: [] }],
      },
    ],
    parallel_tool_calls: true,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
  };
  it('accepts a minimal answer', () =>
    assert.deepEqual(check(MESSAGES.responses.chatResponse, response), []));
  it("refuses the SDK's own output_text (computed by the SDK, never sent)", () => {
    assert.notDeepEqual(check(MESSAGES.responses.chatResponse, { ...response, output_text: 'Hi' }), []);
  });
  it("admits what OpenAI's examples show beyond the types: store, a null user, a null usage", () => {
    const sent = { ...response, store: true, user: null, usage: null };
    assert.deepEqual(check(MESSAGES.responses.chatResponse, sent), []);
    assert.notDeepEqual(check(MESSAGES.responses.chatResponse, { ...sent, store: 'yes' }), []);
    assert.notDeepEqual(check(MESSAGES.responses.chatResponse, { ...sent, billing: null }), []);
  });
  it('refuses a nullable field left out (OpenAI sends every one)', () => {
    const { top_p, ...rest } = response;
    assert.notDeepEqual(check(MESSAGES.responses.chatResponse, rest), []);
  });
  it('an event is checked by its own type', () => {
    const delta = { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0 };
    const event = { ...delta, delta: 'Hi', logprobs: [], sequence_number: 3 };
    assert.deepEqual(check(responsesEvent(event.type), event), []);
    const { sequence_number, ...unnumbered } = event;
    assert.notDeepEqual(check(responsesEvent(event.type), unnumbered), []);
    assert.notDeepEqual(check(responsesEvent('response.completed'), event), []);
    // Delta events may carry `obfuscation` (stream_options.include_obfuscation); no other event does.
    assert.deepEqual(check(responsesEvent(event.type), { ...event, obfuscation: 'x1' }), []);
    const done = {
      ...delta,
      type: 'response.output_text.done',
      text: 'Hi',
      logprobs: [],
      sequence_number: 4,
    };
    assert.deepEqual(check(responsesEvent(done.type), done), []);
    assert.notDeepEqual(check(responsesEvent(done.type), { ...done, obfuscation: 'x1' }), []);
  });
  it('an event type ResponseStreamEvent does not list has no schema', () => {
    assert.equal(responsesEvent('response.thinking.delta'), null);
  });
});

describe('each description is made from the package installed', () => {
  for (const [provider, { package: spec }] of Object.entries(PROVENANCE)) {
    it(`${provider}: ${spec}`, () => {
      const at = spec.lastIndexOf('@');
      assert.equal(`${spec.slice(0, at)}@${installedVersion(spec.slice(0, at))}`, spec);
    });
  }
});

describe("bedrock: the SDK's forms read as the wire's", () => {
  const request = (block) => ({ messages: [{ role: 'user', content: [block] }] });
  const image = (bytes) => ({ image: { format: 'png', source: { bytes } } });
  it('a blob is base64 text', () => {
    assert.deepEqual(check(MESSAGES.bedrock.chatRequest, request(image('iVBORw0KGgo='))), []);
    assert.notDeepEqual(check(MESSAGES.bedrock.chatRequest, request(image('not base64!'))), []);
    assert.notDeepEqual(check(MESSAGES.bedrock.chatRequest, request(image([137, 80]))), []);
  });
  it("a union has no `$unknown` member (the SDK's, not the wire's)", () => {
    assert.notDeepEqual(check(MESSAGES.bedrock.chatRequest, request({ $unknown: ['x', 1] })), []);
  });
  it('a member bound to the URI (modelId) is not in the body', () => {
    assert.notDeepEqual(
      check(MESSAGES.bedrock.chatRequest, { modelId: 'm', ...request({ text: 'Hi' }) }),
      [],
    );
  });
  it('an enum the types hold is checked (ConversationRole)', () => {
    const body = { messages: [{ role: 'narrator', content: [{ text: 'Hi' }] }] };
    assert.notDeepEqual(check(MESSAGES.bedrock.chatRequest, body), []);
  });
  it('a document is any JSON (additionalModelRequestFields)', () => {
    const body = { ...request({ text: 'Hi' }), additionalModelRequestFields: { top_k: 40, x: [null, 'y'] } };
    assert.deepEqual(check(MESSAGES.bedrock.chatRequest, body), []);
  });
  it("an operation's errors carry their HTTP status", () => {
    assert.equal(
      bedrockError('Converse', 'ThrottlingException:http://internal.amazon.com/coral/')?.status,
      429,
    );
    assert.equal(bedrockError('CountTokens', 'ModelTimeoutException'), null);
  });
});
