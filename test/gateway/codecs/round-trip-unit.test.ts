/**
 * Round trips through the codecs keep the meaning of the supported subset:
 * an OpenAI request written as Anthropic and read back is the same OpenAI
 * request (and the reverse); a response likewise; and a stream translated
 * event by event one way and back carries the same text, tool calls, finish
 * reason and usage. The generators cover what both formats can say.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicClient, anthropicUpstream } from '../../../src/codecs/anthropic/index';
import type { EncodeContext, StreamDecoder, StreamEncoder } from '../../../src/codecs/codec';
import type { ChatRequest, ChatResponse, Message, StreamEvent, TokenUsage } from '../../../src/codecs/ir';
import { openAiClient, openAiUpstream } from '../../../src/codecs/openai/index';
import { serialiseFrame } from '../../../src/codecs/translate-stream';
import { merge, ZERO } from '../../../src/codecs/usage';
import { SseFramer } from '../../../src/sse/framer';

const context: EncodeContext = {
  model: 'm',
  providerId: 'acme',
  outputCap: 4096,
  enforceCap: false,
  dropped: [],
};
const text = fc.string({ minLength: 1, maxLength: 40 });
const id = fc.stringMatching(/^[a-z]{4}_[A-Za-z0-9]{6}$/);
const name = fc.stringMatching(/^[a-z][a-z_]{0,15}$/);
const args = fc
  .dictionary(name, fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.boolean()), { maxKeys: 3 })
  .map((o) => JSON.stringify(o));
const image = fc.oneof(
  fc.webUrl().map((url) => ({ type: 'image' as const, source: { kind: 'url' as const, url } })),
  fc
    .base64String({ minLength: 4, maxLength: 40 })
    .filter((d) => d.length > 0)
    .map((data) => ({
      type: 'image' as const,
      source: { kind: 'base64' as const, mediaType: 'image/png', data },
    })),
);
const userTurn = fc
  .array(
    fc.oneof(
      text.map((t) => ({ type: 'text' as const, text: t })),
      image,
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((content): Message => ({ role: 'user', content }));

/** An assistant turn that calls tools, then the user's results for them (text, not errors: OpenAI has no flag). */
const toolRound = fc
  .uniqueArray(fc.record({ id, name, arguments: args }), {
    minLength: 1,
    maxLength: 3,
    selector: (c) => c.id,
  })
  .chain((calls) =>
    fc
      .tuple(
        fc.option(text, { nil: null }),
        fc.array(text, { minLength: calls.length, maxLength: calls.length }),
      )
      .map(([say, results]): Message[] => [
        {
          role: 'assistant',
          content: [
            ...(say ? [{ type: 'text' as const, text: say }] : []),
            ...calls.map((c) => ({ type: 'tool_call' as const, ...c })),
          ],
        },
        {
          role: 'user',
          content: calls.map((c, i) => ({
            type: 'tool_result' as const,
            toolCallId: c.id,
            content: [{ type: 'text' as const, text: results[i] as string }],
            isError: false,
          })),
        },
      ]),
  );
const assistantTurn = text.map((t): Message => ({ role: 'assistant', content: [{ type: 'text', text: t }] }));

/** user, then rounds of (assistant text, user) or (tool calls + results, user): the roles alternate. */
const conversation = fc
  .tuple(
    userTurn,
    fc.array(
      fc.tuple(
        fc.oneof(
          assistantTurn.map((a) => [a]),
          toolRound,
        ),
        userTurn,
      ),
      { maxLength: 3 },
    ),
  )
  .map(([first, rounds]) => [first, ...rounds.flatMap(([middle, user]) => [...middle, user])]);

const tools = fc.uniqueArray(
  fc.record({
    name,
    description: fc.option(text, { nil: null }),
    parameters: fc.constant({ type: 'object', properties: { q: { type: 'string' } } }),
  }),
  { maxLength: 3, selector: (t) => t.name },
);

const request: fc.Arbitrary<ChatRequest> = fc
  .record({
    system: fc.option(text, { nil: null }).map((t) => (t ? [{ type: 'text' as const, text: t }] : [])),
    messages: conversation,
    maxTokens: fc.integer({ min: 1, max: 100_000 }),
    temperature: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    topP: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    stop: fc.array(text, { maxLength: 3 }),
    tools,
    stream: fc.boolean(),
    user: fc.option(text, { nil: null }),
    choice: fc.constantFrom('auto', 'none', 'required', 'tool', null),
    parallel: fc.constantFrom(false, null),
  })
  .map(({ choice, parallel, tools: ts, ...r }) => ({
    ...r,
    topK: null,
    tools: ts,
    toolChoice:
      ts.length === 0 || choice === null
        ? null
        : choice === 'tool'
          ? { type: 'tool' as const, name: (ts[0] as { name: string }).name }
          : { type: choice },
    parallelToolCalls: ts.length === 0 || choice === 'none' ? null : parallel,
    responseFormat: null,
    n: 1,
    reasoning: null,
    promptCacheKey: null,
    dropped: [],
  }));

describe('request round trips', () => {
  it('OpenAI → Anthropic → OpenAI gives back the same OpenAI request', () => {
    fc.assert(
      fc.property(request, (r) => {
        const openAi = openAiUpstream.encodeRequest(r, context);
        const anthropic = anthropicUpstream.encodeRequest(openAiClient.decodeRequest(openAi), context);
        const back = openAiUpstream.encodeRequest(anthropicClient.decodeRequest(anthropic), context);
        expect(back).toEqual(openAi);
      }),
      { numRuns: 300 },
    );
  });

  it('Anthropic → OpenAI → Anthropic gives back the same Anthropic request', () => {
    fc.assert(
      fc.property(request, (r) => {
        const anthropic = anthropicUpstream.encodeRequest(r, context);
        const openAi = openAiUpstream.encodeRequest(anthropicClient.decodeRequest(anthropic), context);
        const back = anthropicUpstream.encodeRequest(openAiClient.decodeRequest(openAi), context);
        expect(back).toEqual(anthropic);
      }),
      { numRuns: 300 },
    );
  });
});

const usage = fc.record({
  input: fc.integer({ min: 0, max: 100_000 }),
  output: fc.integer({ min: 0, max: 100_000 }),
  cacheRead: fc.integer({ min: 0, max: 1000 }),
  // What both formats carry: OpenAI has no cache writes, Anthropic no reasoning count (cross-format-usage tests them).
  cacheWrite: fc.constant(0),
  cacheWrite1h: fc.constant(0),
  reasoning: fc.constant(0),
});
const response: fc.Arbitrary<ChatResponse> = fc
  .record({
    id,
    model: name,
    say: fc.option(text, { nil: null }),
    calls: fc.uniqueArray(fc.record({ id, name, arguments: args }), { maxLength: 2, selector: (c) => c.id }),
    finish: fc.constantFrom('end', 'length', 'content_filter') as fc.Arbitrary<
      'end' | 'length' | 'content_filter'
    >,
    usage,
  })
  .map(({ say, calls, finish, usage: u, ...r }) => ({
    ...r,
    created: 1_700_000_000,
    content: [
      ...(say ? [{ type: 'text' as const, text: say }] : []),
      ...calls.map((c) => ({ type: 'tool_call' as const, ...c })),
    ],
    finish: calls.length > 0 ? ('tool_calls' as const) : finish,
    stopSequence: null,
    usage: { ...u, input: u.input + u.cacheRead },
  }));

describe('response round trips', () => {
  it('OpenAI → Anthropic → OpenAI keeps text, tool calls, finish reason, ids and usage', () => {
    fc.assert(
      fc.property(response, (r) => {
        const openAi = openAiClient.encodeResponse(r);
        const anthropic = anthropicClient.encodeResponse(openAiUpstream.decodeResponse(openAi));
        const back = openAiClient.encodeResponse(anthropicUpstream.decodeResponse(anthropic));
        expect({ ...back, created: 0 }).toEqual({ ...openAi, created: 0 });
      }),
      { numRuns: 300 },
    );
  });
});

/** A canonical stream: start, text and tool calls in pieces, finish, usage, end. */
const stream: fc.Arbitrary<StreamEvent[]> = fc
  .record({
    id,
    model: name,
    pieces: fc.array(
      fc.oneof(
        fc.array(text, { minLength: 1, maxLength: 4 }).map((t) => ({ kind: 'text' as const, t })),
        fc
          .record({ id, name, parts: fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 4 }) })
          .map((c) => ({ kind: 'tool' as const, ...c })),
      ),
      { maxLength: 5 },
    ),
    finish: fc.constantFrom('end', 'length', 'tool_calls') as fc.Arbitrary<'end' | 'length' | 'tool_calls'>,
    usage,
  })
  .map(({ id: sid, model, pieces, finish, usage: u }) => {
    const events: StreamEvent[] = [{ type: 'start', id: sid, model }];
    let tool = 0;
    for (const p of pieces) {
      if (p.kind === 'text') events.push(...p.t.map((t) => ({ type: 'text' as const, text: t })));
      else {
        const index = tool++;
        events.push({ type: 'tool_call', index, id: p.id, name: p.name });
        events.push(...p.parts.map((a) => ({ type: 'tool_arguments' as const, index, arguments: a })));
      }
    }
    events.push({ type: 'finish', reason: finish, stopSequence: null });
    events.push({ type: 'usage', usage: { ...u, input: u.input + u.cacheRead } });
    events.push({ type: 'end' });
    return events;
  });

/** Encodes events as SSE text and decodes that text, as the relay would see it. */
function through(
  events: readonly StreamEvent[],
  encoder: StreamEncoder,
  decoder: StreamDecoder,
): StreamEvent[] {
  const wire = events
    .flatMap((e) => encoder.encode(e))
    .map(serialiseFrame)
    .join('');
  const framer = new SseFramer();
  const out: StreamEvent[] = [];
  for (const frame of framer.push(new TextEncoder().encode(wire))) {
    const decoded = decoder.decode(frame.event);
    if (decoded === 'malformed') throw new Error(`malformed: ${frame.event.data}`);
    out.push(...decoded);
  }
  return out;
}

/** What a stream means: its text, its tool calls, how it finished, its final usage, whether it ended. */
function meaning(events: readonly StreamEvent[]) {
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  let textOut = '';
  let finish: string | null = null;
  let final: TokenUsage = ZERO;
  let ended = false;
  for (const e of events) {
    if (e.type === 'text') textOut += e.text;
    if (e.type === 'tool_call') calls.set(e.index, { id: e.id, name: e.name, arguments: '' });
    if (e.type === 'tool_arguments') (calls.get(e.index) as { arguments: string }).arguments += e.arguments;
    if (e.type === 'finish') finish = e.reason;
    if (e.type === 'usage') final = merge(final, e.usage);
    if (e.type === 'end') ended = true;
  }
  return { text: textOut, calls: [...calls.values()], finish, usage: final, ended };
}

describe('stream round trips', () => {
  it('canonical → Anthropic events → canonical → OpenAI chunks → canonical keeps the meaning', () => {
    fc.assert(
      fc.property(stream, (events) => {
        const viaAnthropic = through(
          events,
          anthropicClient.streamEncoder({ includeUsage: true }),
          anthropicUpstream.streamDecoder(),
        );
        const viaOpenAi = through(
          viaAnthropic,
          openAiClient.streamEncoder({ includeUsage: true }),
          openAiUpstream.streamDecoder(),
        );
        const want = meaning(events);
        expect(meaning(viaAnthropic)).toEqual(want);
        expect(meaning(viaOpenAi)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it('canonical → OpenAI chunks → canonical → Anthropic events → canonical keeps the meaning', () => {
    fc.assert(
      fc.property(stream, (events) => {
        const viaOpenAi = through(
          events,
          openAiClient.streamEncoder({ includeUsage: true }),
          openAiUpstream.streamDecoder(),
        );
        const viaAnthropic = through(
          viaOpenAi,
          anthropicClient.streamEncoder({ includeUsage: true }),
          anthropicUpstream.streamDecoder(),
        );
        const want = meaning(events);
        expect(meaning(viaOpenAi)).toEqual(want);
        expect(meaning(viaAnthropic)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });
});
