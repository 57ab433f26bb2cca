/**
 * Tool results in the text slots of each client format: every text of one result shares one ref (its
 * position and the client's tool call id), and quarantining the ref replaces that result's whole content
 * with the notice, leaving everything else in the body as the client sent it.
 */
import { describe, expect, it } from 'vitest';
import { anthropicRequestSlots } from '../../../src/codecs/anthropic/slots';
import { openAiRequestSlots } from '../../../src/codecs/openai/slots';
import { responsesRequestSlots } from '../../../src/codecs/responses/slots';
import type { TextSlot, ToolResultRef } from '../../../src/codecs/slots';
import type { Endpoint } from '../../../src/core/endpoints';

const NOTICE = '[withheld]';

/** The distinct refs of the slots, in order, with the texts each covers. */
function results(slots: readonly TextSlot[]): { ref: ToolResultRef; texts: string[] }[] {
  const out: { ref: ToolResultRef; texts: string[] }[] = [];
  for (const s of slots) {
    if (!s.result) continue;
    const found = out.find((r) => r.ref === s.result);
    if (found) found.texts.push(s.text);
    else out.push({ ref: s.result, texts: [s.text] });
  }
  return out;
}

describe('chat completions', () => {
  const body = () => ({
    model: 'x',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Check my mail and the weather.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_mail', type: 'function', function: { name: 'mail', arguments: '{}' } },
          { id: 'call_img', type: 'function', function: { name: 'shot', arguments: '{}' } },
          { id: 'call_wx', type: 'function', function: { name: 'weather', arguments: '{}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_mail',
        content: [
          { type: 'text', text: 'From: bob' },
          { type: 'text', text: 'Body: hi' },
        ],
      },
      { role: 'tool', tool_call_id: 'call_img', content: [{ type: 'image_url', image_url: { url: 'x' } }] },
      { role: 'tool', tool_call_id: 'call_wx', content: 'Sunny, 21 °C' },
      { role: 'function', name: 'legacy', content: 'old style' },
    ],
  });

  it('gives each tool message one ref, numbered in order (text-less results count), with its tool_call_id', () => {
    const found = results(openAiRequestSlots('chat' as Endpoint, body()));
    expect(found.map((r) => [r.ref.index, r.ref.id, r.texts])).toEqual([
      [0, 'call_mail', ['From: bob', 'Body: hi']],
      [2, 'call_wx', ['Sunny, 21 °C']],
      [3, null, ['old style']],
    ]);
    // Only tool slots carry a result.
    const slots = openAiRequestSlots('chat' as Endpoint, body());
    expect(slots.filter((s) => s.result).every((s) => s.role === 'tool')).toBe(true);
  });

  it('quarantines the whole content of one tool message, parts and all, and nothing else', () => {
    const b = body();
    const before = structuredClone(b);
    results(openAiRequestSlots('chat' as Endpoint, b))[0]!.ref.quarantine(NOTICE);
    expect(b.messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_mail', content: NOTICE });
    before.messages[3] = { role: 'tool', tool_call_id: 'call_mail', content: NOTICE };
    expect(b).toEqual(before);
  });
});

describe('Anthropic messages', () => {
  const body = () => ({
    model: 'x',
    max_tokens: 10,
    system: 'Be brief.',
    messages: [
      { role: 'user', content: 'Check my mail and the weather.' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_mail', name: 'mail', input: {} },
          { type: 'tool_use', id: 'toolu_wx', name: 'weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_mail',
            is_error: false,
            content: [
              { type: 'text', text: 'From: bob' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
              { type: 'text', text: 'Body: hi' },
            ],
          },
          { type: 'tool_result', tool_use_id: 'toolu_wx', content: 'Sunny, 21 °C' },
          { type: 'text', text: 'Summarise both.' },
        ],
      },
    ],
  });

  it('gives each tool_result block one ref covering all its text blocks, with its tool_use_id', () => {
    const slots = anthropicRequestSlots('messages', body());
    expect(results(slots).map((r) => [r.ref.index, r.ref.id, r.texts])).toEqual([
      [0, 'toolu_mail', ['From: bob', 'Body: hi']],
      [1, 'toolu_wx', ['Sunny, 21 °C']],
    ]);
    // The user's own text beside the results is a user slot without a result.
    const own = slots.find((s) => s.text === 'Summarise both.');
    expect(own?.role).toBe('user');
    expect(own?.result).toBeUndefined();
  });

  it('quarantines one tool_result (text and image) keeping its tool_use_id and is_error, and nothing else', () => {
    const b = body();
    const before = structuredClone(b);
    results(anthropicRequestSlots('messages', b))[0]!.ref.quarantine(NOTICE);
    const blocks = b.messages[2]!.content as unknown[];
    expect(blocks[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_mail',
      is_error: false,
      content: NOTICE,
    });
    (before.messages[2]!.content as unknown[])[0] = blocks[0];
    expect(b).toEqual(before);
  });
});

describe('Responses', () => {
  const body = () => ({
    model: 'x',
    input: [
      { role: 'user', content: 'Check my mail.' },
      { type: 'function_call', call_id: 'call_1', name: 'mail', arguments: '{}' },
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: [
          { type: 'input_text', text: 'From: bob' },
          { type: 'input_image', image_url: 'https://example.com/a.png' },
        ],
      },
      { type: 'custom_tool_call', call_id: 'call_2', name: 'patch', input: '*** Begin' },
      { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done.' },
    ],
  });

  it('gives function_call_output and custom_tool_call_output one ref each, with their call_id', () => {
    const found = results(responsesRequestSlots('responses' as Endpoint, body()));
    expect(found.map((r) => [r.ref.index, r.ref.id, r.texts])).toEqual([
      [0, 'call_1', ['From: bob']],
      [1, 'call_2', ['Done.']],
    ]);
  });

  it('quarantines one output whole, and nothing else', () => {
    const b = body();
    const before = structuredClone(b);
    results(responsesRequestSlots('responses' as Endpoint, b))[0]!.ref.quarantine(NOTICE);
    expect(b.input[2]).toEqual({ type: 'function_call_output', call_id: 'call_1', output: NOTICE });
    before.input[2] = b.input[2]!;
    expect(b).toEqual(before);
  });
});
