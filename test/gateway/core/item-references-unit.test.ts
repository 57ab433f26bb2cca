import { describe, expect, it } from 'vitest';
import {
  isReference,
  referencedResponses,
  resolveReferences,
  responseOfItem,
} from '../../../src/core/item-references';
import type { StoredResponse } from '../../../src/core/stored-response';

const BASE = '0194f0a1b2c37d8e9f00112233445566';

function record(base: string): StoredResponse {
  return {
    v: 1,
    id: `resp_${base}`,
    tenant_id: 'ten_a',
    key_id: 'key_a',
    created_at: 0,
    expires_at: 1e15,
    model: 'anthropic/claude',
    context: [],
    input: [
      { id: `msg_${base}_i0`, type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
    ],
    response: {
      output: [
        { id: `msg_${base}_0`, type: 'message', role: 'assistant', status: 'completed', content: [] },
        { id: `fc_${base}_1`, type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{}' },
      ],
    },
  };
}

describe('item references', () => {
  it('finds the response an item id was minted under, and only for ids the gateway minted', () => {
    expect(responseOfItem(`fc_${BASE}_1`)).toBe(`resp_${BASE}`);
    expect(responseOfItem(`msg_${BASE}_i0`)).toBe(`resp_${BASE}`);
    // OpenAI's own ids carry no position: they are left for OpenAI to resolve.
    expect(responseOfItem('fc_68ab12cd34ef')).toBeNull();
    expect(responseOfItem('msg_68ab12cd34ef')).toBeNull();
  });

  it('tells references from items: item_reference, or an item with nothing but an id', () => {
    expect(isReference({ type: 'item_reference', id: 'x' })).toBe(true);
    expect(isReference({ id: 'x' })).toBe(true);
    expect(isReference({ id: 'x', role: 'user', content: 'hi' })).toBe(false);
    expect(isReference({ type: 'function_call', id: 'x' })).toBe(false);
    expect(isReference('x')).toBe(false);
  });

  it('lists each referenced response once, and nothing for input without references', () => {
    const input = [
      { type: 'item_reference', id: `msg_${BASE}_0` },
      { type: 'item_reference', id: `fc_${BASE}_1` },
      { type: 'item_reference', id: 'fc_openai' },
      { role: 'user', content: 'next' },
    ];
    expect(referencedResponses(input)).toEqual([`resp_${BASE}`]);
    expect(referencedResponses('a string input')).toEqual([]);
    expect(referencedResponses([{ role: 'user', content: 'hi' }])).toEqual([]);
  });

  it('replaces each reference by the item it names, without its id, in place', () => {
    const input = [
      { role: 'user', content: 'weather?' },
      { type: 'item_reference', id: `fc_${BASE}_1` },
      { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      { type: 'item_reference', id: 'fc_openai' },
    ];
    const { input: out, missing } = resolveReferences(input, [record(BASE)]);
    expect(missing).toBeNull();
    expect(out).toEqual([
      { role: 'user', content: 'weather?' },
      { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      { type: 'item_reference', id: 'fc_openai' },
    ]);
  });

  it("names a reference whose response is not the caller's, or whose item is not in it", () => {
    expect(resolveReferences([{ type: 'item_reference', id: `fc_${BASE}_1` }], []).missing).toBe(
      `fc_${BASE}_1`,
    );
    expect(resolveReferences([{ type: 'item_reference', id: `fc_${BASE}_7` }], [record(BASE)]).missing).toBe(
      `fc_${BASE}_7`,
    );
  });
});
