/**
 * Item references in a Responses request's input, pure: which items are references, which response an item id
 * the gateway made belongs to (output items `<kind>_<base>_<n>`, stored input items `<kind>_<base>_i<n>`, of
 * `resp_<base>`; none for a provider's own id), the item a stored response holds, and the input with the
 * references found replaced by their items (without ids) and the others left as sent.
 */
import { describe, expect, it } from 'vitest';
import { recordOf } from '../../../src/core/conversation';
import {
  referencedIds,
  referenceId,
  resolveReferences,
  responseOfItem,
  storedItem,
} from '../../../src/core/item-references';

describe('item references', () => {
  it('are items of type item_reference, or items with neither type nor role, that name an id', () => {
    expect(referenceId({ type: 'item_reference', id: 'msg_a_0' })).toBe('msg_a_0');
    expect(referenceId({ id: 'msg_a_0' })).toBe('msg_a_0');
    expect(referenceId({ role: 'user', id: 'msg_a_0', content: 'x' })).toBeUndefined();
    expect(referenceId({ type: 'message', id: 'msg_a_0' })).toBeUndefined();
    expect(referenceId({ type: 'item_reference' })).toBeUndefined();
    expect(referenceId('msg_a_0')).toBeUndefined();
    expect(
      referencedIds([
        { role: 'user', content: 'q' },
        { type: 'item_reference', id: 'msg_a_0' },
        { id: 'fc_a_1' },
        { type: 'item_reference', id: 'msg_a_0' },
      ]),
    ).toEqual(['msg_a_0', 'fc_a_1']);
    expect(referencedIds('a string')).toEqual([]);
    expect(referencedIds(undefined)).toEqual([]);
  });

  it('name their response when the gateway made the id, and none otherwise', () => {
    expect(responseOfItem('msg_01a21bf224c575ea9477d4800fb7b40b_0')).toBe(
      'resp_01a21bf224c575ea9477d4800fb7b40b',
    );
    expect(responseOfItem('fc_abc_12')).toBe('resp_abc');
    expect(responseOfItem('rs_a-b_c_3')).toBe('resp_a-b_c');
    expect(responseOfItem('msg_abc_i0')).toBe('resp_abc');
    // OpenAI's (and the mock's) own ids, passed through: no response of the gateway's.
    expect(responseOfItem('msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b')).toBeNull();
    expect(responseOfItem('msg_FyIIrZ7mJmc79gtIR061L6urXOijRlqf7eJLnAgFJoMIKHN1')).toBeNull();
    expect(responseOfItem('abc_0')).toBeNull();
  });

  it("are found among a stored response's own input items and its output, and replaced without their id", () => {
    const message = {
      id: 'msg_one_0',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: '4', annotations: [] }],
    };
    const record = recordOf({
      id: 'resp_one',
      tenantId: 'ten_a',
      keyId: 'key_a',
      model: 'mock/echo',
      createdAt: 1,
      expiresAt: 2,
      body: { input: 'What is 2+2?' },
      context: 0,
      response: { id: 'resp_one', output: [message] },
    });
    expect(storedItem(record, 'msg_one_0')).toEqual(message);
    expect(storedItem(record, 'msg_one_i0')).toEqual({
      id: 'msg_one_i0',
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'What is 2+2?' }],
    });
    expect(storedItem(record, 'msg_one_1')).toBeUndefined();

    const found = new Map([['msg_one_0', message]]);
    const question = { role: 'user', content: 'And 3+3?' };
    const unknown = { type: 'item_reference', id: 'msg_other_0' };
    const { id: _id, ...replayed } = message;
    expect(
      resolveReferences([{ type: 'item_reference', id: 'msg_one_0' }, unknown, question], found),
    ).toEqual([replayed, unknown, question]);
  });
});
