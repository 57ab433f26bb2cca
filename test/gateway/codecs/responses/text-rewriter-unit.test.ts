/**
 * The Responses text rewriter under the guardrails' stream transforms, driven through the observer as
 * the relay drives it: values split across deltas are redacted in the deltas, and every repetition of a
 * text (the `.done` events, the finished part and item, the terminal event's response) carries the text
 * as relayed, so nothing redacted reaches the client there; held text is flushed as one more delta
 * before the event that ends it, and the stream stays numbered from 0.
 */
import { describe, expect, it } from 'vitest';
import { responsesAssembler } from '../../../../src/codecs/responses/assemble';
import { responsesObserver } from '../../../../src/codecs/responses/observer';
import { responsesTextRewriter } from '../../../../src/codecs/responses/text-rewriter';
import { effectivePolicy, type Guardrail, type GuardrailPolicy } from '../../../../src/core/guardrail-policy';
import type { LogGuardrail } from '../../../../src/core/log-event';
import { blockedMessage, GUARDRAIL_BLOCKED } from '../../../../src/guardrails/blocked';
import { Placeholders } from '../../../../src/guardrails/pii/placeholders';
import { answerTransforms, type TextTransform } from '../../../../src/guardrails/response-text';
import type { EventRewriter } from '../../../../src/sse/observer';
import { parseFrames, recordedEvents } from './relay-fixture';

const CARD = '4111 1111 1111 1111';
const SECRET = 'sk-ant-api03-Zx81mQp4LrT7vWc2Nb6HsK9dFg3JyA5eUi0oPq2RtYw8aa';

/**
 * The guardrails' event rewriter over the Responses text rewriter: per-text transforms kept by key, as
 * src/guardrails/stream-guard.ts keeps them (which reaches a format's rewriter through CLIENT_CODECS).
 */
function guarded(policy: GuardrailPolicy) {
  const state = { verdicts: [] as LogGuardrail[], blocked: null as Guardrail | null };
  const make = answerTransforms(effectivePolicy({}, policy), new Placeholders(), state)!;
  const texts = new Map<string, TextTransform>();
  const through = (key: string, text: string) => {
    const t = texts.get(key) ?? make();
    texts.set(key, t);
    return t.push(text);
  };
  const flush = (key: string) => {
    const t = texts.get(key);
    texts.delete(key);
    return t ? t.flush() : '';
  };
  const text = responsesTextRewriter(through, flush);
  const fault = () => ({ fault: GUARDRAIL_BLOCKED, message: blockedMessage(state.blocked!, 'response') });
  const rewriter: EventRewriter = {
    rewrite: (data, event) => {
      const out = text.rewrite(data, event);
      return state.blocked ? fault() : out;
    },
    finish: () => {
      const out = text.finish([...texts.keys()]);
      return state.blocked ? fault() : out;
    },
  };
  return { rewriter, state };
}

/** The events through a guarded observer: what the client gets (parsed back), and what was assembled. */
function relay(events: Record<string, unknown>[], policy: GuardrailPolicy = { pii: { response: 'redact' } }) {
  const assembler = responsesAssembler();
  const { rewriter } = guarded(policy);
  const observer = responsesObserver({ rewriter, onChunk: (chunk, event) => assembler.push(chunk, event) });
  let sse = '';
  let fault: string | null = null;
  for (const e of events) {
    const data = JSON.stringify(e);
    const verdict = observer.observe({ event: String(e.type), data });
    if (verdict instanceof Uint8Array) sse += new TextDecoder().decode(verdict);
    else if (verdict === 'forward') sse += `event: ${String(e.type)}\ndata: ${data}\n\n`;
    else if (typeof verdict === 'object') {
      fault = verdict.fault;
      break;
    }
  }
  return { sse, relayed: parseFrames(sse), observer, whole: assembler.result(), fault };
}

type Event = Record<string, unknown>;
/** The value at a path in parsed JSON (undefined when the path is not there). */
const dig = (value: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((o, key) => (o as Record<string | number, unknown> | undefined)?.[key], value);
const ofType = (events: Event[], type: string) => events.filter((e) => e.type === type);
const first = (events: Event[], type: string, ...path: (string | number)[]) =>
  dig(ofType(events, type)[0], ...path);
const deltas = (events: Event[], type: string) =>
  ofType(events, type)
    .map((e) => e.delta)
    .join('');

/** Every place a streamed text is repeated whole: the done events, the finished part and items, the terminal response. */
function repeated(events: Event[]) {
  const items = ofType(events, 'response.output_item.done');
  return {
    text: [
      first(events, 'response.output_text.done', 'text'),
      first(events, 'response.content_part.done', 'part', 'text'),
      dig(items[1], 'item', 'content', 0, 'text'),
      first(events, 'response.completed', 'response', 'output', 1, 'content', 0, 'text'),
    ],
    args: [
      first(events, 'response.function_call_arguments.done', 'arguments'),
      dig(items[2], 'item', 'arguments'),
      first(events, 'response.completed', 'response', 'output', 2, 'arguments'),
    ],
  };
}

const numberedFromZero = (events: Event[]) =>
  expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));

describe('responsesTextRewriter', () => {
  it('redacts values split across deltas, and every done and completed text carries the text as relayed', () => {
    const { sse, relayed, observer, whole } = relay(
      recordedEvents(
        ['Your card is 4111 1111', ' 1111 1111, kept on file.'],
        ['{"email":"jane.d', 'oe@example.com"}'],
      ),
    );
    expect(sse).not.toContain('4111');
    expect(sse).not.toContain('jane');
    const text = 'Your card is [CARD_1], kept on file.';
    const args = '{"email":"[EMAIL_1]"}';
    expect(deltas(relayed, 'response.output_text.delta')).toBe(text);
    expect(deltas(relayed, 'response.function_call_arguments.delta')).toBe(args);
    expect(repeated(relayed)).toEqual({ text: [text, text, text, text], args: [args, args, args] });
    numberedFromZero(relayed);
    expect(observer.done).toBe(true);
    expect(observer.usage?.inputTokens).toBe(312);
    // What the cache and the store keep is what the client got.
    expect(whole).toEqual(first(relayed, 'response.completed', 'response'));
  });

  it('flushes what a text still held as one more delta just before its done event, renumbering what follows', () => {
    const events = recordedEvents(['Pay with 4111 1111', ' 1111 1111'], ['{}']);
    const { sse, relayed } = relay(events);
    expect(sse).not.toContain('4111');
    const done = relayed.findIndex((e) => e.type === 'response.output_text.done');
    expect(relayed[done - 1]).toMatchObject({
      type: 'response.output_text.delta',
      output_index: 1,
      content_index: 0,
      delta: expect.stringContaining('[CARD_1]'),
      logprobs: [],
    });
    expect(deltas(relayed, 'response.output_text.delta')).toBe('Pay with [CARD_1]');
    expect(repeated(relayed).text).toEqual(Array(4).fill('Pay with [CARD_1]'));
    expect(relayed.length).toBe(events.length + 1);
    numberedFromZero(relayed);
  });

  it('flushes held text before the terminal event when no done event ended it, and the response carries it', () => {
    const events = recordedEvents([`Card: ${CARD}`], ['{}']).filter(
      (e) =>
        !['response.output_text.done', 'response.content_part.done', 'response.output_item.done'].includes(
          String(e.type),
        ),
    );
    const { sse, relayed } = relay(events);
    expect(sse).not.toContain('4111');
    const last = relayed.length - 1;
    expect(relayed[last]!.type).toBe('response.completed');
    expect(relayed[last - 1]).toMatchObject({ type: 'response.output_text.delta', output_index: 1 });
    expect(deltas(relayed, 'response.output_text.delta')).toBe('Card: [CARD_1]');
    expect(dig(relayed[last], 'response', 'output', 1, 'content', 0, 'text')).toBe('Card: [CARD_1]');
    numberedFromZero(relayed);
  });

  it('passes a text that came without deltas through its transform whole, wherever it is repeated', () => {
    const events = recordedEvents([`Card: ${CARD}`], ['{"email":"jane.doe@example.com"}']).filter(
      (e) => !String(e.type).endsWith('.delta'),
    );
    const { sse, relayed } = relay(events);
    expect(sse).not.toContain('4111');
    expect(sse).not.toContain('jane');
    expect(repeated(relayed)).toEqual({
      text: Array(4).fill('Card: [CARD_1]'),
      args: Array(3).fill('{"email":"[EMAIL_1]"}'),
    });
  });

  it('redacts refusals and custom tool input, in their deltas and their done events', () => {
    const at = { item_id: 'x', sequence_number: 0 };
    const events = [
      { type: 'response.refusal.delta', ...at, output_index: 0, content_index: 0, delta: `No: ${CARD}` },
      { type: 'response.refusal.done', ...at, output_index: 0, content_index: 0, refusal: `No: ${CARD}` },
      { type: 'response.custom_tool_call_input.delta', ...at, output_index: 1, delta: 'mail jane.doe@' },
      { type: 'response.custom_tool_call_input.delta', ...at, output_index: 1, delta: 'example.com' },
      {
        type: 'response.custom_tool_call_input.done',
        ...at,
        output_index: 1,
        input: 'mail jane.doe@example.com',
      },
    ];
    const { sse, relayed } = relay(events);
    expect(sse).not.toContain('4111');
    expect(sse).not.toContain('jane');
    expect(first(relayed, 'response.refusal.done', 'refusal')).toBe('No: [CARD_1]');
    expect(deltas(relayed, 'response.custom_tool_call_input.delta')).toBe('mail [EMAIL_1]');
    expect(first(relayed, 'response.custom_tool_call_input.done', 'input')).toBe('mail [EMAIL_1]');
  });

  it('leaves a clean stream as it was but for where its deltas split, and the reasoning summary untouched', () => {
    const events = recordedEvents();
    const { relayed } = relay(events);
    const streamed = ['response.output_text.delta', 'response.function_call_arguments.delta'];
    const rest = (list: Event[]) =>
      list.filter((e) => !streamed.includes(String(e.type))).map(({ sequence_number: _, ...e }) => e);
    expect(rest(relayed)).toEqual(rest(events));
    for (const type of streamed) expect(deltas(relayed, type)).toBe(deltas(events, type));
    numberedFromZero(relayed);
  });

  it('ends the stream before a blocked value is relayed, even when only the terminal response holds it', () => {
    const events = recordedEvents([`key: ${SECRET}`], ['{}']).filter(
      (e) => !String(e.type).endsWith('.delta'),
    );
    const dropped = events.filter(
      (e) =>
        !['response.output_text.done', 'response.content_part.done', 'response.output_item.done'].includes(
          String(e.type),
        ),
    );
    const { sse, fault } = relay(dropped, { secrets: { response: 'block' } });
    expect(fault).toBe(GUARDRAIL_BLOCKED);
    expect(sse).not.toContain('sk-ant');
  });
});
