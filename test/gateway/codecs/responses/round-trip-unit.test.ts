/**
 * Round trips through the Responses codec keep the meaning of what it can carry: a Responses body
 * read into the canonical request and written back is the same body; read and sent on to Anthropic
 * or OpenAI chat it keeps its text, tools, calls, results and (to Anthropic) Claude's signatures
 * byte for byte; an answer written as Responses JSON reads back as itself, an Anthropic answer
 * included; and a stream written as Responses events and read back carries the same text, reasoning
 * and signatures, tool calls, finish reason and usage, alone or on through the other formats.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicClient, anthropicUpstream } from '../../../../src/codecs/anthropic/index';
import type { EncodeContext, StreamDecoder, StreamEncoder } from '../../../../src/codecs/codec';
import type {
  AnswerPart,
  ChatRequest,
  ChatResponse,
  Message,
  ReasoningIssuer,
  StreamEvent,
  TokenUsage,
} from '../../../../src/codecs/ir';
import { openAiClient, openAiUpstream } from '../../../../src/codecs/openai/index';
import {
  decodeResponsesRequest,
  decodeResponsesResponse,
  encodeResponsesRequest,
  encodeResponsesResponse,
  responsesStreamDecoder,
  responsesStreamEncoder,
} from '../../../../src/codecs/responses/index';
import { serialiseFrame } from '../../../../src/codecs/translate-stream';
import { merge, ZERO } from '../../../../src/codecs/usage';
import { SseFramer } from '../../../../src/sse/framer';

const context = (over: Partial<EncodeContext> = {}): EncodeContext => ({
  model: 'gpt-5.1',
  providerId: 'openai',
  outputCap: 4096,
  enforceCap: false,
  dropped: [],
  ...over,
});
const text = fc.string({ minLength: 1, maxLength: 40 });
const id = fc.stringMatching(/^[a-z]{4}_[A-Za-z0-9]{6}$/);
const name = fc.stringMatching(/^[a-z][a-z_]{0,15}$/);
const signature = fc.base64String({ minLength: 4, maxLength: 60 }).filter((s) => s.length > 0);
const args = fc
  .dictionary(name, fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.boolean()), { maxKeys: 3 })
  .map((o) => JSON.stringify(o));
const image = fc.oneof(
  fc.webUrl().map((url) => ({ type: 'image' as const, source: { kind: 'url' as const, url } })),
  signature.map((data) => ({
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
const reasoningBy = (issuer: ReasoningIssuer) =>
  fc
    .record({ text: fc.string({ maxLength: 30 }), signature })
    .map((r) => ({ type: 'reasoning' as const, ...r, issuer }));

/** An assistant turn (reasoning its issuer signed, text, calls), then the user's results for the calls. */
const toolRound = (issuer: ReasoningIssuer) =>
  fc
    .uniqueArray(fc.record({ id, name, arguments: args }), {
      minLength: 1,
      maxLength: 3,
      selector: (c) => c.id,
    })
    .chain((calls) =>
      fc
        .tuple(
          fc.option(reasoningBy(issuer), { nil: null }),
          fc.option(text, { nil: null }),
          fc.array(text, { minLength: calls.length, maxLength: calls.length }),
        )
        .map(([thought, say, results]): Message[] => [
          {
            role: 'assistant',
            content: [
              ...(thought ? [thought] : []),
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
const conversation = (issuer: ReasoningIssuer) =>
  fc
    .tuple(
      userTurn,
      fc.array(
        fc.tuple(
          fc.oneof(
            assistantTurn.map((a) => [a]),
            toolRound(issuer),
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

const request = (issuer: ReasoningIssuer): fc.Arbitrary<ChatRequest> =>
  fc
    .record({
      system: fc.option(text, { nil: null }).map((t) => (t ? [{ type: 'text' as const, text: t }] : [])),
      messages: conversation(issuer),
      maxTokens: fc.integer({ min: 16, max: 100_000 }),
      temperature: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      topP: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      tools,
      stream: fc.boolean(),
      user: fc.option(text, { nil: null }),
      choice: fc.constantFrom('auto', 'none', 'required', 'tool', null),
      parallel: fc.constantFrom(false, null),
      effort: fc.constantFrom('low', 'medium', 'high', null),
      summarized: fc.boolean(),
      promptCacheKey: fc.option(text, { nil: null }),
    })
    .map(({ choice, parallel, tools: ts, effort, summarized, ...r }) => ({
      ...r,
      topK: null,
      stop: [],
      tools: ts,
      toolChoice:
        ts.length === 0 || choice === null
          ? null
          : choice === 'tool'
            ? { type: 'tool' as const, name: (ts[0] as { name: string }).name }
            : { type: choice },
      parallelToolCalls: ts.length === 0 ? null : parallel,
      responseFormat: null,
      n: 1,
      reasoning:
        effort === null
          ? null
          : {
              mode: 'on' as const,
              effort,
              budgetTokens: null,
              display: summarized ? ('summarized' as const) : null,
            },
      dropped: [],
    }));

/** The canonical request without what a format cannot carry: reasoning parts, and the drop list. */
const withoutReasoning = (r: ChatRequest) => ({
  ...r,
  messages: r.messages.map((m) => ({
    ...m,
    content: m.content.filter((p) => p.type !== 'reasoning' && p.type !== 'redacted_reasoning'),
  })),
  dropped: [],
});

/** 'auto' is every format's default when tools are given, left implicit. */
const implicitAuto = (r: ChatRequest): ChatRequest => ({
  ...r,
  toolChoice: r.toolChoice?.type === 'auto' ? null : r.toolChoice,
});

/** Consecutive user turns as one (Anthropic joins tool results and the user's next words into one turn). */
const joinedTurns = (messages: readonly Message[]): Message[] =>
  messages.reduce<Message[]>((out, m) => {
    const last = out.at(-1);
    if (last?.role === 'user' && m.role === 'user')
      out[out.length - 1] = { role: 'user', content: [...last.content, ...m.content] };
    else out.push(m);
    return out;
  }, []);

describe('request round trips', () => {
  it('Responses → canonical → Responses gives back the same body, OpenAI-signed reasoning included', () => {
    fc.assert(
      fc.property(request('openai'), (r) => {
        const body = encodeResponsesRequest(r, context());
        expect(encodeResponsesRequest(decodeResponsesRequest(body), context())).toEqual(body);
        expect({ ...decodeResponsesRequest(body), dropped: [] }).toEqual(implicitAuto(r));
      }),
      { numRuns: 300 },
    );
  });

  it("Responses → Anthropic → canonical keeps text, tools, calls, results and Claude's signatures byte for byte", () => {
    fc.assert(
      fc.property(request('anthropic'), (r) => {
        // What a Responses client sends back after a Claude answer: Claude's signatures wrapped in encrypted_content.
        const clientBody = clientBodyOf(r);
        const decoded = decodeResponsesRequest(clientBody);
        expect({ ...decoded, reasoning: r.reasoning, dropped: [] }).toEqual(implicitAuto(r));
        const anthropic = anthropicUpstream.encodeRequest(
          decoded,
          context({ model: 'claude-sonnet-4-5', providerId: 'anthropic' }),
        );
        const back = anthropicClient.decodeRequest(anthropic);
        expect(joinedTurns(back.messages)).toEqual(joinedTurns(decoded.messages));
        expect(back.tools).toEqual(decoded.tools);
        expect(back.system.map((p) => p.text).join('\n\n')).toEqual(
          decoded.system.map((p) => p.text).join('\n\n'),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('Responses → OpenAI chat → canonical keeps text, tools, tool choice, calls and results', () => {
    fc.assert(
      fc.property(request('openai'), (r) => {
        const decoded = decodeResponsesRequest(encodeResponsesRequest(r, context()));
        const chat = openAiUpstream.encodeRequest(decoded, context({ providerId: 'openai' }));
        const back = openAiClient.decodeRequest(chat);
        expect(withoutReasoning(back)).toEqual({
          ...withoutReasoning(decoded),
          // Chat Completions has no summary setting: the effort travels alone.
          reasoning: decoded.reasoning ? { ...decoded.reasoning, display: null } : null,
        });
      }),
      { numRuns: 300 },
    );
  });
});

/** A Responses client's body for a conversation whose reasoning any format signed (its encrypted_content wrapped). */
function clientBodyOf(r: ChatRequest): Record<string, unknown> {
  const openAiSigned = {
    ...r,
    messages: r.messages.map((m) => ({
      ...m,
      content: m.content.map((p) =>
        p.type === 'reasoning' && p.signature !== null && p.issuer !== 'openai'
          ? { ...p, signature: `edgeway:${p.issuer}:${p.signature}`, issuer: 'openai' as const }
          : p,
      ),
    })),
  };
  return { ...encodeResponsesRequest(openAiSigned, context()), store: true };
}

const usage = fc.record({
  input: fc.integer({ min: 0, max: 100_000 }),
  output: fc.integer({ min: 0, max: 100_000 }),
  cacheRead: fc.integer({ min: 0, max: 1000 }),
  cacheWrite: fc.integer({ min: 0, max: 1000 }),
  cacheWrite1h: fc.constant(0),
  reasoning: fc.integer({ min: 0, max: 1000 }),
});
const issuer = fc.constantFrom<ReasoningIssuer>('anthropic', 'gemini', 'bedrock', 'openai');
const answerPart: fc.Arbitrary<AnswerPart> = fc.oneof(
  fc.string({ maxLength: 30 }).map((t) => ({ type: 'text' as const, text: t })),
  fc.record({ id, name, arguments: args }).map((c) => ({ type: 'tool_call' as const, ...c })),
  fc
    .record({ text: fc.string({ maxLength: 30 }), signature: fc.option(signature, { nil: null }), issuer })
    .map((p) => ({ type: 'reasoning' as const, ...p, issuer: p.signature === null ? null : p.issuer })),
  fc.record({ data: signature, issuer }).map((p) => ({ type: 'redacted_reasoning' as const, ...p })),
);
const response: fc.Arbitrary<ChatResponse> = fc
  .record({
    id: id.map((i) => `resp_${i}`),
    model: name,
    created: fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }),
    content: fc.array(answerPart, { maxLength: 6 }),
    cut: fc.constantFrom('length', 'content_filter', null),
    usage: fc.option(usage, { nil: null }),
  })
  .map(({ cut, content, ...r }) => ({
    ...r,
    content,
    finish: cut ?? (content.some((p) => p.type === 'tool_call') ? ('tool_calls' as const) : ('end' as const)),
    stopSequence: null,
  }));

describe('response round trips', () => {
  it('canonical → Responses JSON → canonical is the same answer', () => {
    fc.assert(
      fc.property(response, (r) => {
        expect(decodeResponsesResponse(encodeResponsesResponse(r))).toEqual(r);
      }),
      { numRuns: 500 },
    );
  });

  it("an Anthropic answer written as Responses JSON and read back keeps Claude's signatures and redacted thinking", () => {
    const block = fc.oneof(
      text.map((t) => ({ type: 'text', text: t })),
      fc
        .record({ thinking: fc.string({ maxLength: 30 }), signature })
        .map((b) => ({ type: 'thinking', ...b })),
      signature.map((data) => ({ type: 'redacted_thinking', data })),
      fc.record({ id, name }).map((c) => ({ type: 'tool_use', ...c, input: { q: 'x' } })),
    );
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), (content) => {
        const fromClaude = anthropicUpstream.decodeResponse({
          id: 'msg_01',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content,
          stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 7 },
        });
        const back = decodeResponsesResponse(encodeResponsesResponse(fromClaude));
        expect(back.content).toEqual(fromClaude.content);
        expect(anthropicClient.encodeResponse(back).content).toEqual(
          anthropicClient.encodeResponse(fromClaude).content,
        );
      }),
      { numRuns: 300 },
    );
  });
});

/** A canonical stream: start, reasoning (signed or not), text and tool calls in pieces, finish, usage, end. */
const stream = (
  issuers: fc.Arbitrary<ReasoningIssuer>,
  u: fc.Arbitrary<TokenUsage>,
): fc.Arbitrary<StreamEvent[]> =>
  fc
    .record({
      id,
      model: name,
      pieces: fc.array(
        fc.oneof(
          fc.array(text, { minLength: 1, maxLength: 4 }).map((t) => ({ kind: 'text' as const, t })),
          fc
            .record({ t: fc.array(text, { minLength: 1, maxLength: 3 }), signature, issuer: issuers })
            .map((r) => ({ kind: 'reasoning' as const, ...r })),
          fc
            .record({
              id,
              name,
              parts: fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 4 }),
            })
            .map((c) => ({ kind: 'tool' as const, ...c })),
        ),
        { maxLength: 5 },
      ),
      cut: fc.boolean(),
      usage: u,
    })
    .map(({ id: sid, model, pieces, cut, usage: used }) => {
      const events: StreamEvent[] = [{ type: 'start', id: sid, model }];
      let tool = 0;
      for (const p of pieces) {
        if (p.kind === 'text') events.push(...p.t.map((t) => ({ type: 'text' as const, text: t })));
        else if (p.kind === 'reasoning') {
          events.push(...p.t.map((t) => ({ type: 'reasoning' as const, text: t })));
          events.push({ type: 'reasoning_signature', signature: p.signature, issuer: p.issuer });
        } else {
          const index = tool++;
          events.push({ type: 'tool_call', index, id: p.id, name: p.name });
          events.push(...p.parts.map((a) => ({ type: 'tool_arguments' as const, index, arguments: a })));
        }
      }
      const reason = cut ? 'length' : tool > 0 ? 'tool_calls' : 'end';
      events.push({ type: 'finish', reason, stopSequence: null });
      events.push({ type: 'usage', usage: used });
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
  const out: StreamEvent[] = [];
  for (const frame of new SseFramer().push(new TextEncoder().encode(wire))) {
    const decoded = decoder.decode(frame.event);
    if (decoded === 'malformed') throw new Error(`malformed: ${frame.event.data}`);
    out.push(...decoded);
  }
  return out;
}

/** What a stream means: text, reasoning parts with their signatures, tool calls, finish, final usage, whether it ended. */
function meaning(events: readonly StreamEvent[]) {
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  const reasoning: { text: string; signature: string | null; issuer: string | null }[] = [];
  let open: { text: string; signature: string | null; issuer: string | null } | null = null;
  let said = '';
  let finish: string | null = null;
  let final: TokenUsage = ZERO;
  let ended = false;
  for (const e of events) {
    if (e.type === 'reasoning' || e.type === 'reasoning_signature') {
      if (!open) {
        open = { text: '', signature: null, issuer: null };
        reasoning.push(open);
      }
      if (e.type === 'reasoning') open.text += e.text;
      else {
        open.signature = e.signature;
        open.issuer = e.issuer;
        open = null;
      }
      continue;
    }
    if (e.type !== 'usage') open = null;
    if (e.type === 'text') said += e.text;
    if (e.type === 'tool_call') calls.set(e.index, { id: e.id, name: e.name, arguments: '' });
    if (e.type === 'tool_arguments') (calls.get(e.index) as { arguments: string }).arguments += e.arguments;
    if (e.type === 'finish') finish = e.reason;
    if (e.type === 'usage') final = merge(final, e.usage);
    if (e.type === 'end') ended = true;
  }
  return { text: said, reasoning, calls: [...calls.values()], finish, usage: final, ended };
}

const responses = () => ({
  encoder: responsesStreamEncoder({ includeUsage: false }),
  decoder: responsesStreamDecoder(),
});
/** What Anthropic's and OpenAI's usage objects both carry (no cache writes in OpenAI's, no reasoning count in Anthropic's). */
const sharedUsage = usage.map((u) => ({ ...u, cacheWrite: 0, reasoning: 0, input: u.input + u.cacheRead }));

describe('stream round trips', () => {
  it('canonical → Responses events → canonical keeps the meaning, every issuer’s signature included', () => {
    fc.assert(
      fc.property(stream(issuer, usage), (events) => {
        const { encoder, decoder } = responses();
        expect(meaning(through(events, encoder, decoder))).toEqual(meaning(events));
      }),
      { numRuns: 300 },
    );
  });

  it('canonical → Responses → canonical → Anthropic → canonical keeps the meaning, Claude’s signatures included', () => {
    fc.assert(
      fc.property(stream(fc.constant<ReasoningIssuer>('anthropic'), sharedUsage), (events) => {
        const { encoder, decoder } = responses();
        const viaResponses = through(events, encoder, decoder);
        const viaAnthropic = through(
          viaResponses,
          anthropicClient.streamEncoder({ includeUsage: true }),
          anthropicUpstream.streamDecoder(),
        );
        expect(meaning(viaAnthropic)).toEqual(meaning(events));
      }),
      { numRuns: 300 },
    );
  });

  it('canonical → OpenAI chat → canonical → Responses → canonical keeps the text, calls, finish and usage', () => {
    fc.assert(
      fc.property(stream(issuer, sharedUsage), (events) => {
        const viaOpenAi = through(
          events,
          openAiClient.streamEncoder({ includeUsage: true }),
          openAiUpstream.streamDecoder(),
        );
        const { encoder, decoder } = responses();
        const viaResponses = through(viaOpenAi, encoder, decoder);
        const { reasoning: _r, ...want } = meaning(events);
        const { reasoning: _v, ...got } = meaning(viaResponses);
        expect(got).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });
});
