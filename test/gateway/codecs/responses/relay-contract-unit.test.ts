/**
 * The same-format members as the gateway calls them, through the ClientCodec contract: a cached
 * answer replayed, relayed by the observer (fast and parsing) into the assembler, read for usage, and
 * judged by its answer slots.
 */
import { describe, expect, it } from 'vitest';
import { responsesClient as responsesRelay } from '../../../../src/codecs/responses/index';
import { parseEvent } from '../../../../src/sse/framer';
import { enc } from '../byte-observer-helpers';
import { COMPLETED } from './relay-fixture';

describe('responsesRelay', () => {
  it('relays a replayed answer into the same answer, with the usage its body reports', () => {
    const frames = responsesRelay
      .replay(COMPLETED, false)
      .split(/(?<=\n\n)/)
      .filter((f) => f !== '');
    const assembler = responsesRelay.assembler();
    const observer = responsesRelay.observer({ stripUsage: true, onChunk: (c, e) => assembler.push(c, e) });
    const fast = responsesRelay.byteObserver({ stripUsage: true });
    for (const f of frames) {
      expect(observer.observe(parseEvent(enc(f)))).toBe('forward');
      expect(fast.observeBytes!(enc(f))).toBe('forward');
    }
    const whole = assembler.result()!;
    expect(whole).toEqual(COMPLETED);
    expect(observer.usage).toEqual(responsesRelay.usage(whole));
    expect(fast.usage).toEqual(observer.usage);
    expect(fast.done && observer.done).toBe(true);
    expect(responsesRelay.answerSlots(whole).map((s) => s.text)).toEqual([
      'Let me check the weather in Paris for you.',
      '{"city":"Paris"}',
    ]);
  });
});
