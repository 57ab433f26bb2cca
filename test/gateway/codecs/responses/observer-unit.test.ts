import { describe, expect, it } from 'vitest';
import { responsesObserver } from '../../../../src/codecs/responses/observer';
import { ARGUMENTS, COMPLETED, recordedEvents, TEXT } from './relay-fixture';

const ev = (data: Record<string, unknown> | string) => ({
  event: typeof data === 'string' ? null : String(data.type),
  data: typeof data === 'string' ? data : JSON.stringify(data),
});

const USAGE = {
  inputTokens: 312,
  outputTokens: 94,
  cachedTokens: 128,
  cacheWriteTokens: 0,
  cacheWrite1hTokens: 0,
  reasoningTokens: 64,
};

describe('responsesObserver', () => {
  it('forwards every event of a recorded stream and reads its usage and terminator', () => {
    const o = responsesObserver();
    const verdicts = recordedEvents().map((e) => o.observe(ev(e)));
    expect(verdicts.every((v) => v === 'forward')).toBe(true);
    expect(o.done).toBe(true);
    expect(o.usage).toEqual(USAGE);
    expect(o.upstreamError).toBeNull();
  });

  it('counts output text and function-call arguments as delivered, not the reasoning summary', () => {
    const o = responsesObserver({ capture: 20 });
    for (const e of recordedEvents()) o.observe(ev(e));
    expect(o.deliveredChars).toBe(TEXT.join('').length + ARGUMENTS.join('').length);
    expect(o.captured).toBe(TEXT.join('').slice(0, 20));
  });

  it('counts refusal and custom tool input deltas as delivered', () => {
    const o = responsesObserver();
    o.observe(ev({ type: 'response.refusal.delta', sequence_number: 3, delta: 'I cannot' }));
    o.observe(ev({ type: 'response.custom_tool_call_input.delta', sequence_number: 4, delta: 'ls -la' }));
    expect(o.deliveredChars).toBe('I cannot'.length + 'ls -la'.length);
  });

  it('is not done when the stream is cut before its terminal event', () => {
    const o = responsesObserver();
    for (const e of recordedEvents().slice(0, -1)) o.observe(ev(e));
    expect(o.done).toBe(false);
    expect(o.usage).toBeNull();
    expect(o.deliveredChars).toBe(TEXT.join('').length + ARGUMENTS.join('').length);
  });

  it('ends on response.incomplete with its usage', () => {
    const o = responsesObserver();
    o.observe(
      ev({
        type: 'response.incomplete',
        sequence_number: 9,
        response: { ...COMPLETED, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
      }),
    );
    expect(o.done).toBe(true);
    expect(o.usage).toEqual(USAGE);
    expect(o.upstreamError).toBeNull();
  });

  it("ends on response.failed and records its response's error", () => {
    const o = responsesObserver();
    o.observe(
      ev({
        type: 'response.failed',
        sequence_number: 5,
        response: {
          ...COMPLETED,
          status: 'failed',
          output: [],
          error: { code: 'server_error', message: 'The model failed to answer.' },
        },
      }),
    );
    expect(o.done).toBe(true);
    expect(o.upstreamError).toBe('The model failed to answer.');
  });

  it('records an error event as an upstream error without ending the stream', () => {
    const o = responsesObserver();
    expect(
      o.observe(
        ev({
          type: 'error',
          sequence_number: 2,
          code: 'rate_limit_exceeded',
          message: 'Slow down.',
          param: null,
        }),
      ),
    ).toBe('forward');
    expect(o.upstreamError).toBe('Slow down.');
    expect(o.done).toBe(false);
  });

  it('flags an event that is not a JSON object as malformed, and drops a [DONE] the format does not have', () => {
    expect(responsesObserver().observe(ev('{"type":'))).toBe('malformed');
    expect(responsesObserver().observe(ev('[DONE]'))).toBe('drop');
  });

  it("writes the gateway's error as the format's error event, numbered after the last event relayed", () => {
    const o = responsesObserver();
    for (const e of recordedEvents().slice(0, 6)) o.observe(ev(e));
    const frame = o.errorFrame('The upstream stream ended before it was complete.', 'stream_incomplete');
    expect(frame.startsWith('event: error\ndata: ')).toBe(true);
    expect(frame.endsWith('\n\n')).toBe(true);
    expect(JSON.parse(frame.slice('event: error\ndata: '.length))).toEqual({
      type: 'error',
      code: 'stream_incomplete',
      message: 'The upstream stream ended before it was complete.',
      param: null,
      sequence_number: 6,
    });
  });

  it('passes every parsed event to its listener', () => {
    const seen: string[] = [];
    const o = responsesObserver({ onChunk: (chunk, event) => seen.push(event ?? String(chunk.type)) });
    for (const e of recordedEvents()) o.observe(ev(e));
    expect(seen).toEqual(recordedEvents().map((e) => e.type));
  });
});
