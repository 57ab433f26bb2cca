import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '../../../src/providers/bedrock-event-stream';
import toolStream from '../codecs/fixtures/bedrock-stream-tool.json';
import {
  chunked,
  concat,
  decodeAll,
  encodeEvent,
  type RecordedEvent,
  transformToSse,
} from '../codecs/fixtures/bedrock-wire';

const messages = (toolStream as RecordedEvent[]).map(encodeEvent);
const whole = concat(messages);

describe('Bedrock event stream → SSE', () => {
  it('writes one SSE event per message, named by :event-type, with the payload as data', async () => {
    const { events } = await transformToSse([whole]);
    expect(events.map((e) => e.event)).toEqual((toolStream as { event: string }[]).map((e) => e.event));
    expect(JSON.parse(events[4]!.data)).toEqual(toolStream[4]!.payload);
  });

  it('gives the same events whatever the chunk boundaries, down to one byte per chunk', async () => {
    const { events: expected } = await transformToSse([whole]);
    for (const size of [1, 2, 3, 5, 7, 13, 64, 100, 333]) {
      const { events, writes } = await transformToSse(chunked(whole, size));
      expect(events, `chunks of ${size}`).toEqual(expected);
      expect(writes).toBeLessThanOrEqual(messages.length);
    }
  });

  it('writes at most one chunk per input chunk, with every message it completed', async () => {
    const { events, writes } = await transformToSse([
      concat(messages.slice(0, 5)),
      concat(messages.slice(5)),
    ]);
    expect(writes).toBe(2);
    expect(events).toHaveLength(messages.length);
  });

  it('ends the stream with a malformed event at a message whose checksum is wrong', async () => {
    const corrupt = messages.map((m) => m.slice());
    const third = corrupt[2]!;
    const at = third.byteLength - 6; // a payload byte: the message CRC no longer matches
    third[at] = (third[at] as number) ^ 0xff;
    const { events } = await transformToSse(chunked(concat(corrupt), 10));
    expect(events.map((e) => e.event)).toEqual(['messageStart', 'contentBlockDelta', 'malformed']);
    expect(decodeAll(events).at(-1)).toBe('malformed');
  });

  it('reports a message declaring an impossible length as malformed, without allocating it', async () => {
    const huge = new Uint8Array(12);
    new DataView(huge.buffer).setUint32(0, MAX_MESSAGE_BYTES + 1);
    const { events } = await transformToSse([messages[0]!, huge, messages[1]!]);
    expect(events.map((e) => e.event)).toEqual(['messageStart', 'malformed']);
    const tiny = new Uint8Array([0, 0, 0, 3]);
    expect((await transformToSse([tiny])).events.map((e) => e.event)).toEqual(['malformed']);
  });

  it('emits nothing for a message cut off at the end, so the missing terminator shows', async () => {
    const cut = whole.slice(0, whole.byteLength - 7);
    const { events } = await transformToSse(chunked(cut, 50));
    expect(events).toHaveLength(messages.length - 1);
    const decoded = decodeAll(events);
    expect(decoded).not.toContain('malformed');
    expect(decoded.some((e) => e !== 'malformed' && e.type === 'end')).toBe(false);
  });
});
