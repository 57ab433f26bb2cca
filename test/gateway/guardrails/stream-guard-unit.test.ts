/**
 * The answer side of a stream at the event level (pure): OpenAI and Anthropic
 * events through the rewriter, a value split at every boundary between two
 * deltas is still redacted, held text is released into the event that ends
 * its text (finish_reason, content_block_stop, or the terminator), tool-call
 * arguments are judged like content, and a block becomes a fault before any
 * part of the value is relayed.
 */
import { describe, expect, it } from 'vitest';
import { effectivePolicy, type GuardrailPolicy } from '../../../src/core/guardrail-policy';
import type { LogGuardrail } from '../../../src/core/log-event';
import { Placeholders } from '../../../src/guardrails/pii/placeholders';
import { answerTransforms } from '../../../src/guardrails/response-text';
import { streamGuard } from '../../../src/guardrails/stream-guard';
import type { EventRewriter, RewrittenEvent, StreamFault } from '../../../src/sse/observer';

const CARD = '4111 1111 1111 1111';
const SECRET = 'sk-ant-api03-Zx81mQp4LrT7vWc2Nb6HsK9dFg3JyA5eUi0oPq2RtYw8aa';

function guard(format: 'openai' | 'anthropic', policy: GuardrailPolicy, placeholders = new Placeholders()) {
  const state = { verdicts: [] as LogGuardrail[], blocked: null };
  const make = answerTransforms(effectivePolicy({}, policy), placeholders, state);
  if (!make) throw new Error('no transform');
  return { rewriter: streamGuard(format, make, state), state };
}

const chunk = (content: string | null, finish: string | null = null) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }],
});

/** The OpenAI content the client sees, from a list of deltas followed by a finish chunk and [DONE]. */
function openAiThrough(rewriter: EventRewriter, deltas: string[]): string | StreamFault {
  const out: RewrittenEvent[] = [];
  for (const d of deltas) {
    const r = rewriter.rewrite(chunk(d), null);
    if ('fault' in r) return r;
    out.push(...r);
  }
  const end = rewriter.rewrite(chunk(null, 'stop'), null);
  if ('fault' in end) return end;
  out.push(...end);
  const held = rewriter.finish();
  if ('fault' in held) return held;
  out.push(...held);
  return out
    .map((e) => (e.data.choices as { delta: { content?: string } }[])[0]?.delta.content ?? '')
    .join('');
}

describe('stream guard, OpenAI events', () => {
  const text = `Pay with ${CARD} today.`;

  it('redacts a card split at every boundary between two deltas', () => {
    for (let i = 0; i <= text.length; i++) {
      const { rewriter } = guard('openai', { pii: { response: 'redact' } });
      expect(openAiThrough(rewriter, [text.slice(0, i), text.slice(i)])).toBe('Pay with [CARD_1] today.');
    }
  });

  it('redacts a card streamed one character at a time, and counts it once', () => {
    const { rewriter, state } = guard('openai', { pii: { response: 'redact' } });
    expect(openAiThrough(rewriter, [...text])).toBe('Pay with [CARD_1] today.');
    expect(state.verdicts).toEqual([
      expect.objectContaining({ guardrail: 'pii', direction: 'response', action: 'redact', count: 1 }),
    ]);
  });

  it('releases held text at the terminator when no finish_reason came', () => {
    const { rewriter } = guard('openai', { pii: { response: 'redact' } });
    const first = rewriter.rewrite(chunk('card 4111 1111'), null);
    const held = rewriter.finish();
    const all = [...(first as RewrittenEvent[]), ...(held as RewrittenEvent[])]
      .map((e) => (e.data.choices as { delta: { content?: string } }[])[0]?.delta.content ?? '')
      .join('');
    expect(all).toBe('card 4111 1111');
  });

  it('faults before any part of a blocked secret is relayed, at every split', () => {
    const secretText = `key: ${SECRET} end`;
    for (let i = 0; i <= secretText.length; i += 3) {
      const { rewriter } = guard('openai', { secrets: { response: 'block' } });
      const relayed: string[] = [];
      let fault: StreamFault | null = null;
      for (const d of [secretText.slice(0, i), secretText.slice(i), null]) {
        const r = d === null ? rewriter.rewrite(chunk(null, 'stop'), null) : rewriter.rewrite(chunk(d), null);
        if ('fault' in r) {
          fault = r;
          break;
        }
        relayed.push(JSON.stringify(r));
      }
      expect(fault?.fault).toBe('guardrail_blocked');
      expect(relayed.join('')).not.toContain('sk-ant');
    }
  });

  it('judges tool-call arguments and releases them into the finish chunk', () => {
    const { rewriter } = guard('openai', { pii: { response: 'redact' } });
    const call = (args: string) => ({
      ...chunk(null),
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, function: { arguments: args } }] },
          finish_reason: null,
        },
      ],
    });
    const out: RewrittenEvent[] = [];
    for (const part of ['{"email":"jane.d', 'oe@example.com"}'])
      out.push(...(rewriter.rewrite(call(part), null) as RewrittenEvent[]));
    out.push(...(rewriter.rewrite(chunk(null, 'tool_calls'), null) as RewrittenEvent[]));
    const args = out
      .flatMap(
        (e) =>
          (e.data.choices as { delta: { tool_calls?: { function: { arguments: string } }[] } }[])[0]?.delta
            .tool_calls ?? [],
      )
      .map((c) => c.function.arguments)
      .join('');
    expect(args).toBe('{"email":"[EMAIL_1]"}');
  });

  it('restores the request’s placeholders split across deltas', () => {
    const placeholders = new Placeholders();
    placeholders.label('email', 'jane.doe@example.com');
    // The tenant's consent to restore is part of the effective policy.
    const state = { verdicts: [] as LogGuardrail[], blocked: null };
    const make = answerTransforms(
      effectivePolicy({ restore: true }, { pii: { request: 'redact' } }),
      placeholders,
      state,
    );
    const restoring = streamGuard('openai', make!, state);
    expect(openAiThrough(restoring, ['mail [EMA', 'IL_1] now'])).toBe('mail jane.doe@example.com now');
  });
});

describe('stream guard, Anthropic events', () => {
  it('releases held text as a delta before content_block_stop', () => {
    const { rewriter } = guard('anthropic', { pii: { response: 'redact' } });
    const delta = (text: string) => ({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text },
    });
    const out: RewrittenEvent[] = [];
    for (const t of ['card 4111 11', '11 1111 1111'])
      out.push(...(rewriter.rewrite(delta(t), 'content_block_delta') as RewrittenEvent[]));
    out.push(
      ...(rewriter.rewrite(
        { type: 'content_block_stop', index: 0 },
        'content_block_stop',
      ) as RewrittenEvent[]),
    );
    expect(out.at(-1)!.event).toBe('content_block_stop');
    const text = out
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (e.data.delta as { text: string }).text)
      .join('');
    expect(text).toBe('card [CARD_1]');
  });
});
