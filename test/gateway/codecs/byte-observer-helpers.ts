/** Shared by the byte observers' tests: SSE text builders and the fast-versus-parsing comparison. */
import { expect } from 'vitest';
import { parseEvent } from '../../../src/sse/framer';
import type { StreamObserver } from '../../../src/sse/observer';

export const enc = (s: string) => new TextEncoder().encode(s);
export const data = (body: unknown) => `data: ${typeof body === 'string' ? body : JSON.stringify(body)}\n\n`;
export const named = (event: string, body: unknown) => `event: ${event}\n${data(body)}`;
export const delta = (content: string) => data({ choices: [{ index: 0, delta: { content } }] });

/** Runs the same events through both observers; returns the verdicts of each and the observers. */
export function both(events: string[], full: StreamObserver, fast: StreamObserver) {
  const verdicts = events.map((e) => [full.observe(parseEvent(enc(e))), fast.observeBytes!(enc(e))]);
  return { full: verdicts.map((v) => v[0]), fast: verdicts.map((v) => v[1]) };
}

export function expectSameEnd(full: StreamObserver, fast: StreamObserver) {
  expect(fast.done).toBe(full.done);
  expect(fast.usage).toEqual(full.usage);
  expect(fast.upstreamError).toBe(full.upstreamError);
}
