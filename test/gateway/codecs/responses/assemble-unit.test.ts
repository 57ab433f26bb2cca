import { describe, expect, it } from 'vitest';
import { responsesAssembler } from '../../../../src/codecs/responses/assemble';
import { COMPLETED, recordedEvents } from './relay-fixture';

describe('responsesAssembler', () => {
  it('is the response the terminal event carries', () => {
    const a = responsesAssembler();
    for (const e of recordedEvents()) a.push(e, String(e.type));
    expect(a.result()).toEqual(COMPLETED);
  });

  it('reads the event type from the data when the event has no name', () => {
    const a = responsesAssembler();
    for (const e of recordedEvents()) a.push(e, null);
    expect(a.result()).toEqual(COMPLETED);
  });

  it('is null for a stream cut before its terminal event', () => {
    const a = responsesAssembler();
    for (const e of recordedEvents().slice(0, -1)) a.push(e, String(e.type));
    expect(a.result()).toBeNull();
  });

  it('puts in the finished items when the terminal response comes without its output', () => {
    const a = responsesAssembler();
    const events = recordedEvents();
    const terminal = events.pop()!;
    for (const e of events) a.push(e, String(e.type));
    a.push({ ...terminal, response: { ...COMPLETED, output: [] } }, 'response.completed');
    expect(a.result()).toEqual(COMPLETED);
  });
});
