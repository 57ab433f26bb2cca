import { describe, expect, it } from 'vitest';
import { responsesByteObserver } from '../../../../src/codecs/responses/byte-observer';
import { responsesObserver } from '../../../../src/codecs/responses/observer';
import { both, enc, expectSameEnd } from '../byte-observer-helpers';
import { ARGUMENTS, frame, recordedFrames, TEXT } from './relay-fixture';

describe('responsesByteObserver', () => {
  it('agrees with the parsing observer on a recorded stream', () => {
    const full = responsesObserver();
    const fast = responsesByteObserver();
    const v = both(recordedFrames(), full, fast);
    expect(v.fast).toEqual(v.full);
    expectSameEnd(full, fast);
    expect(fast.done).toBe(true);
    expect(fast.usage?.reasoningTokens).toBe(64);
    // The arguments' quotes are JSON-escaped in the bytes (src/sse/byte-observer.ts): counted as sent.
    const escapes = (ARGUMENTS.join('').match(/"/g) ?? []).length;
    expect(full.deliveredChars).toBe(TEXT.join('').length + ARGUMENTS.join('').length);
    expect(fast.deliveredChars).toBe(full.deliveredChars + escapes);
  });

  it('agrees on a cut stream: not done, no usage', () => {
    const full = responsesObserver();
    const fast = responsesByteObserver();
    const v = both(recordedFrames().slice(0, -1), full, fast);
    expect(v.fast).toEqual(v.full);
    expectSameEnd(full, fast);
    expect(fast.done).toBe(false);
    expect(fast.usage).toBeNull();
  });

  it('numbers its error frame after the last event, read from the bytes of events it did not parse', () => {
    const full = responsesObserver();
    const fast = responsesByteObserver();
    both(recordedFrames().slice(0, 12), full, fast);
    expect(fast.errorFrame('stalled', 'stream_idle_timeout')).toBe(
      full.errorFrame('stalled', 'stream_idle_timeout'),
    );
    expect(fast.errorFrame('stalled', 'stream_idle_timeout')).toContain('"sequence_number":12');
  });

  it('records an upstream error event and a failed response, and flags a delta that is not a JSON object', () => {
    const fast = responsesByteObserver();
    fast.observeBytes!(
      enc(frame({ type: 'error', sequence_number: 0, code: null, message: 'busy', param: null })),
    );
    expect(fast.upstreamError).toBe('busy');
    expect(fast.done).toBe(false);
    const failed = responsesByteObserver();
    failed.observeBytes!(
      enc(
        frame({
          type: 'response.failed',
          sequence_number: 1,
          response: { status: 'failed', error: { code: 'server_error', message: 'boom' }, output: [] },
        }),
      ),
    );
    expect(failed.done).toBe(true);
    expect(failed.upstreamError).toBe('boom');
    expect(
      responsesByteObserver().observeBytes!(enc('event: response.output_text.delta\ndata: {"delta":\n\n')),
    ).toBe('malformed');
  });

  it('leaves an event without an event line to the parsing observer', () => {
    const fast = responsesByteObserver();
    fast.observeBytes!(
      enc(`data: ${JSON.stringify({ type: 'response.output_text.delta', delta: 'Hi' })}\n\n`),
    );
    expect(fast.deliveredChars).toBe(2);
  });
});
