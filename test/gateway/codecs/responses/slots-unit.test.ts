import { describe, expect, it } from 'vitest';
import { responsesAnswerSlots, responsesRequestSlots } from '../../../../src/codecs/responses/slots';
import type { Endpoint } from '../../../../src/core/endpoints';
import { COMPLETED } from './relay-fixture';

const ENDPOINT = 'responses' as Endpoint;

/** A Codex-like request: every kind of item that carries text, and some that carry none. */
const request = () => ({
  model: 'openai/gpt-5',
  instructions: 'You are a coding agent.',
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Sandbox: read-only.' }] },
    {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'What is in main.py?' },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
      ],
    },
    {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Reading the file.' }],
      encrypted_content: 'gAAAA',
    },
    { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"cmd":"cat main.py"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'print("hello")' },
    {
      type: 'message',
      role: 'assistant',
      id: 'msg_1',
      status: 'completed',
      content: [
        { type: 'output_text', text: 'It prints hello.', annotations: [] },
        { type: 'refusal', refusal: 'I will not run it.' },
      ],
    },
    { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
    {
      type: 'custom_tool_call_output',
      call_id: 'call_2',
      output: [{ type: 'input_text', text: 'Done.' }],
    },
    {
      type: 'function_call_output',
      call_id: 'call_3',
      output: [
        { type: 'input_text', text: 'line one' },
        { type: 'input_image', image_url: 'https://example.com/a.png' },
      ],
    },
    { role: 'user', content: 'Thanks.' },
  ],
});

describe('responsesRequestSlots', () => {
  it('finds every text in document order, each under the role that wrote it', () => {
    const slots = responsesRequestSlots(ENDPOINT, request());
    expect(slots.map((s) => [s.role, s.text])).toEqual([
      ['system', 'You are a coding agent.'],
      ['system', 'Sandbox: read-only.'],
      ['user', 'What is in main.py?'],
      ['assistant', '{"cmd":"cat main.py"}'],
      ['tool', 'print("hello")'],
      ['assistant', 'It prints hello.'],
      ['assistant', 'I will not run it.'],
      ['assistant', '*** Begin Patch'],
      ['tool', 'Done.'],
      ['tool', 'line one'],
      ['user', 'Thanks.'],
    ]);
  });

  it('rewrites each text in place, leaving everything else as the client sent it', () => {
    const body = request();
    const slots = responsesRequestSlots(ENDPOINT, body);
    for (const [i, s] of slots.entries()) s.set(`<${i}>`);
    // The client's JSON with exactly those strings replaced (each text occurs once in it).
    let expected = JSON.stringify(request());
    for (const [i, text] of responsesRequestSlots(ENDPOINT, request())
      .map((s) => s.text)
      .entries())
      expected = expected.replace(JSON.stringify(text), JSON.stringify(`<${i}>`));
    expect(JSON.stringify(body)).toBe(expected);
    expect(responsesRequestSlots(ENDPOINT, body).map((s) => s.text)).toEqual(slots.map((_, i) => `<${i}>`));
  });

  it('reads a string input as the user’s text', () => {
    const body = { model: 'm', instructions: 'Be brief.', input: 'My card is 4111 1111 1111 1111' };
    const slots = responsesRequestSlots(ENDPOINT, body);
    expect(slots.map((s) => [s.role, s.text])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'My card is 4111 1111 1111 1111'],
    ]);
    slots[1]!.set('My card is [CARD_1]');
    expect(body.input).toBe('My card is [CARD_1]');
  });
});

describe('responsesAnswerSlots', () => {
  it("finds the output text and the tool call's arguments, not the reasoning summary", () => {
    const body = structuredClone(COMPLETED);
    const slots = responsesAnswerSlots(body);
    expect(slots.map((s) => [s.role, s.text])).toEqual([
      ['assistant', 'Let me check the weather in Paris for you.'],
      ['assistant', '{"city":"Paris"}'],
    ]);
    slots[0]!.set('redacted');
    expect((body.output[1] as { content: { text: string }[] }).content[0]!.text).toBe('redacted');
  });

  it('finds refusals and custom tool input', () => {
    const body = {
      output: [
        { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
        { type: 'custom_tool_call', call_id: 'c', name: 'shell', input: 'rm -rf /' },
      ],
    };
    expect(responsesAnswerSlots(body).map((s) => s.text)).toEqual(['No.', 'rm -rf /']);
  });
});
