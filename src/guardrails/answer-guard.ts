/**
 * The response side of the guardrails for a complete answer in the client's
 * format: a JSON body from the provider, or a cached answer about to be
 * served (a cache hit never bypasses the caller's response policy). Each text
 * of the answer goes through the same per-text transform a stream's deltas do
 * (src/guardrails/response-text.ts, whose shared state collects the verdicts
 * and the blocking guardrail), so a JSON answer and a streamed one are judged
 * alike. The body is changed in place; the result says whether to serialise
 * it again.
 */
import { CLIENT_CODECS } from '../codecs/index';
import type { ClientFormat } from '../core/endpoints';
import { type TextTransform, transformWhole } from './response-text';

export function guardAnswer(
  make: () => TextTransform,
  format: ClientFormat,
  body: Record<string, unknown>,
): boolean {
  let changed = false;
  for (const slot of CLIENT_CODECS[format].answerSlots(body)) {
    const text = transformWhole(make, slot.text);
    if (text !== slot.text) {
      slot.set(text);
      changed = true;
    }
  }
  return changed;
}
