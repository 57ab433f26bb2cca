/**
 * The Gemini codec's reasoning, cache, system-turn and structured-output translation: the
 * thinkingConfig each model generation takes, thought parts and thought signatures both ways
 * (signatures byte for byte), mid-conversation system turns, what is dropped and named.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EncodeContext } from '../../../../src/codecs/codec';
import { geminiUpstream } from '../../../../src/codecs/gemini/index';
import { REPLAYED_SIGNATURE } from '../../../../src/codecs/gemini/request';
import type { AnswerPart, ChatRequest, Message, Reasoning, StreamEvent } from '../../../../src/codecs/ir';
import { canonicalRequest } from '../fixtures/canonical';

type Json = Record<string, unknown>;

const context = (model: string): EncodeContext => ({
  model,
  providerId: 'gemini',
  outputCap: 4096,
  enforceCap: false,
  dropped: [],
});

function encode(over: Partial<ChatRequest>, model = 'gemini-2.5-flash') {
  const ctx = context(model);
  const body = geminiUpstream.encodeRequest(canonicalRequest(over), ctx);
  return { body, dropped: ctx.dropped, config: (body.generationConfig ?? {}) as Json };
}

const on = (over: Partial<Reasoning> = {}): Reasoning => ({
  mode: 'on',
  effort: null,
  budgetTokens: null,
  display: null,
  ...over,
});

describe('Gemini codec: thinkingConfig', () => {
  it('sends a 2.5 model the budget asked for, with thought summaries', () => {
    const { config, dropped } = encode({ reasoning: on({ budgetTokens: 5000 }) });
    expect(config.thinkingConfig).toEqual({ thinkingBudget: 5000, includeThoughts: true });
    expect(dropped).toEqual([]);
  });

  it("turns an effort into a budget on 2.5 and a level on Gemini 3 ('default' mode thinks too)", () => {
    expect(encode({ reasoning: on({ effort: 'high' }) }).config.thinkingConfig).toEqual({
      thinkingBudget: 16384,
      includeThoughts: true,
    });
    const low = encode({ reasoning: on({ mode: 'default', effort: 'low' }) }, 'gemini-3-pro-preview');
    expect(low.config.thinkingConfig).toEqual({ thinkingLevel: 'low', includeThoughts: true });
    const high = encode({ reasoning: on({ budgetTokens: 20000 }) }, 'gemini-3-flash');
    expect(high.config.thinkingConfig).toEqual({ thinkingLevel: 'high', includeThoughts: true });
  });

  it("keeps a budget inside the model's range", () => {
    expect(
      encode({ reasoning: on({ budgetTokens: 50 }) }, 'gemini-2.5-pro').config.thinkingConfig,
    ).toMatchObject({
      thinkingBudget: 128,
    });
    expect(
      encode({ reasoning: on({ budgetTokens: 100 }) }, 'gemini-2.5-flash-lite').config.thinkingConfig,
    ).toMatchObject({ thinkingBudget: 512 });
    expect(encode({ reasoning: on({ budgetTokens: 90000 }) }).config.thinkingConfig).toMatchObject({
      thinkingBudget: 24576,
    });
  });

  it("asks for no thought summaries when the reasoning's display is omitted", () => {
    const { config } = encode({ reasoning: on({ budgetTokens: 2048, display: 'omitted' }) });
    expect(config.thinkingConfig).toEqual({ thinkingBudget: 2048 });
  });

  it('stops thinking with budget 0 where the model can, and names the reasoning dropped where it cannot', () => {
    const off = on({ mode: 'off', effort: 'none' });
    expect(encode({ reasoning: off }).config.thinkingConfig).toEqual({ thinkingBudget: 0 });
    expect(encode({ reasoning: off }, 'models/gemini-2.5-flash-lite').config.thinkingConfig).toEqual({
      thinkingBudget: 0,
    });
    for (const model of ['gemini-2.5-pro', 'gemini-3-pro-preview']) {
      const { config, dropped } = encode({ reasoning: off }, model);
      expect(config.thinkingConfig).toBeUndefined();
      expect(dropped).toEqual(['reasoning']);
    }
  });

  it('sends no thinkingConfig to a model that does not think, and names the reasoning dropped', () => {
    for (const model of ['gemini-2.0-flash', 'gemini-1.5-pro', 'gemini-flash-latest']) {
      const { config, dropped } = encode({ reasoning: on({ effort: 'high' }) }, model);
      expect(config.thinkingConfig).toBeUndefined();
      expect(dropped).toEqual(['reasoning']);
    }
    // Asking a model that does not think not to think is already honoured.
    expect(encode({ reasoning: on({ mode: 'off' }) }, 'gemini-2.0-flash').dropped).toEqual([]);
  });

  it('never sends a level and a budget together, and keeps every budget in the model range (property)', () => {
    const ranges: Record<string, [number, number]> = {
      'gemini-2.5-pro': [128, 32768],
      'gemini-2.5-flash': [0, 24576],
      'gemini-2.5-flash-lite': [0, 24576],
    };
    const reasoning = fc.record({
      mode: fc.constantFrom('on', 'off', 'default'),
      effort: fc.constantFrom(null, 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'),
      budgetTokens: fc.option(fc.integer({ min: 0, max: 100000 }), { nil: null }),
      display: fc.constantFrom(null, 'summarized', 'omitted'),
    }) as fc.Arbitrary<Reasoning>;
    const model = fc.constantFrom(...Object.keys(ranges), 'gemini-3-pro-preview', 'gemini-2.0-flash');
    fc.assert(
      fc.property(reasoning, model, (r, m) => {
        const { config, dropped } = encode({ reasoning: r }, m);
        const thinking = config.thinkingConfig as Json | undefined;
        if (!thinking) return;
        expect(dropped).toEqual([]);
        expect('thinkingLevel' in thinking && 'thinkingBudget' in thinking).toBe(false);
        const range = ranges[m];
        const budget = thinking.thinkingBudget as number | undefined;
        if (budget !== undefined && budget !== 0 && range) {
          expect(budget).toBeGreaterThanOrEqual(range[0]);
          expect(budget).toBeLessThanOrEqual(range[1]);
        }
        if (budget === 0) expect(m).not.toBe('gemini-2.5-pro');
      }),
    );
  });

  it('sends nothing when the request says nothing about reasoning', () => {
    expect(encode({}).config.thinkingConfig).toBeUndefined();
  });
});

const SIGNATURE = 'CiQB0e2Kb4yX+/AbC=\u00e9\u{1F600}';

const turn = (content: Message['content']): Message[] => [
  { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
  { role: 'assistant', content },
];

const modelParts = (body: Json): Json[] =>
  ((body.contents as { role: string; parts: Json[] }[]).find((c) => c.role === 'model')?.parts ??
    []) as Json[];

describe('Gemini codec: thought signatures in the history', () => {
  it("puts Gemini's signature on the call that follows it, byte for byte, and no placeholder", () => {
    const { body } = encode({
      messages: turn([
        { type: 'reasoning', text: 'I should look it up.', signature: SIGNATURE, issuer: 'gemini' },
        { type: 'tool_call', id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool_call', id: 'c2', name: 'get_weather', arguments: '{"city":"Lyon"}' },
      ]),
    });
    expect(modelParts(body)).toEqual([
      { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: SIGNATURE },
      { functionCall: { name: 'get_weather', args: { city: 'Lyon' } } },
    ]);
  });

  it('puts a signature on the text that follows it, and one with nothing after it on an empty text part', () => {
    const { body } = encode({
      messages: turn([
        { type: 'reasoning', text: '', signature: 'sig-a', issuer: 'gemini' },
        { type: 'text', text: 'Sunny.' },
        { type: 'reasoning', text: '', signature: 'sig-b', issuer: 'gemini' },
      ]),
    });
    expect(modelParts(body)).toEqual([
      { text: 'Sunny.', thoughtSignature: 'sig-a' },
      { text: '', thoughtSignature: 'sig-b' },
    ]);
  });

  it("sends no reasoning another provider issued, nor unsigned thoughts, and marks that turn's calls as replayed", () => {
    const { body } = encode({
      messages: turn([
        { type: 'reasoning', text: 'Claude thinking', signature: 'anthropic-sig', issuer: 'anthropic' },
        { type: 'redacted_reasoning', data: 'opaque', issuer: 'anthropic' },
        { type: 'reasoning', text: 'unsigned', signature: null, issuer: 'gemini' },
        { type: 'tool_call', id: 'c1', name: 'get_weather', arguments: '{}' },
      ]),
    });
    expect(modelParts(body)).toEqual([
      { functionCall: { name: 'get_weather', args: {} }, thoughtSignature: REPLAYED_SIGNATURE },
    ]);
  });
});

const answer = (parts: Json[]) => ({
  candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 7 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'resp1',
});

describe('Gemini codec: thoughts and signatures in answers', () => {
  it('reads thought text as reasoning and a signature as its own part before the part it came on', () => {
    const r = geminiUpstream.decodeResponse(
      answer([
        { text: 'Considering the ', thought: true },
        { text: 'weather.', thought: true },
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: SIGNATURE },
        { text: 'Done', thoughtSignature: 'sig-2' },
      ]),
    );
    expect(r.content).toEqual([
      { type: 'reasoning', text: 'Considering the weather.', signature: SIGNATURE, issuer: 'gemini' },
      { type: 'tool_call', id: 'call_resp1_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'reasoning', text: '', signature: 'sig-2', issuer: 'gemini' },
      { type: 'text', text: 'Done' },
    ]);
  });

  it('streams thought text as reasoning events and a signature before the event of its part', () => {
    const decoder = geminiUpstream.streamDecoder();
    const events: StreamEvent[] = [];
    const chunk = (parts: Json[], finish = false) => ({
      candidates: [{ content: { parts, role: 'model' }, ...(finish ? { finishReason: 'STOP' } : {}) }],
      ...(finish ? { usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2 } } : {}),
      responseId: 'r9',
      modelVersion: 'gemini-3-pro-preview',
    });
    for (const c of [
      chunk([{ text: 'Hmm.', thought: true }]),
      chunk([{ functionCall: { name: 'f', args: {} }, thoughtSignature: SIGNATURE }]),
      chunk([{ text: '', thoughtSignature: 'tail' }], true),
    ]) {
      const out = decoder.decode({ event: null, data: JSON.stringify(c) });
      if (out === 'malformed') throw new Error('malformed');
      events.push(...out);
    }
    expect(events.filter((e) => e.type !== 'usage')).toEqual([
      { type: 'start', id: 'r9', model: 'gemini-3-pro-preview' },
      { type: 'reasoning', text: 'Hmm.' },
      { type: 'reasoning_signature', signature: SIGNATURE, issuer: 'gemini' },
      { type: 'tool_call', index: 0, id: 'call_r9_0', name: 'f' },
      { type: 'tool_arguments', index: 0, arguments: '{}' },
      { type: 'reasoning_signature', signature: 'tail', issuer: 'gemini' },
      { type: 'finish', reason: 'tool_calls', stopSequence: null },
      { type: 'end' },
    ]);
  });

  /** A model turn as Gemini answers it: thoughts, text and calls, any of them signed. */
  const part = fc.oneof(
    fc.record({ text: fc.string({ minLength: 1, maxLength: 12 }), thought: fc.constant(true) }),
    fc.record({ text: fc.string({ minLength: 1, maxLength: 12 }) }),
    fc.record({
      functionCall: fc.record({ name: fc.stringMatching(/^[a-z]{1,8}$/), args: fc.constant({}) }),
    }),
  );
  const signed = fc
    .tuple(part, fc.option(fc.base64String({ minLength: 4, maxLength: 24 }), { nil: undefined }))
    .map(([p, s]): Json => (s ? { ...p, thoughtSignature: s } : p));
  /** Two text parts in a row merge into one answer text; the property compares part for part, so they are kept apart. */
  const turnParts = fc
    .array(signed, { minLength: 1, maxLength: 8 })
    .filter(
      (ps) => !ps.some((p, i) => i > 0 && isText(p) && isText(ps[i - 1] as Json) && !p.thoughtSignature),
    );

  it('sends every signature of an answer back, in order, each on the part it came on (property)', () => {
    fc.assert(
      fc.property(turnParts, (parts) => {
        const decoded = geminiUpstream.decodeResponse(answer(parts));
        const sent = modelParts(encode({ messages: turn(decoded.content) }).body);
        const real = (ps: Json[]) =>
          ps.flatMap((p) =>
            p.thoughtSignature && p.thoughtSignature !== REPLAYED_SIGNATURE ? [p.thoughtSignature] : [],
          );
        expect(real(sent)).toEqual(real(parts));
        const visible = parts.filter((p) => p.thought !== true);
        const sentVisible = sent.filter((p) => !(p.text === '' && p.thoughtSignature));
        expect(sentVisible.map(({ thoughtSignature, ...p }) => p)).toEqual(
          visible.map(({ thoughtSignature, ...p }) => p),
        );
        visible.forEach((p, i) => {
          if (p.thoughtSignature) expect(sentVisible[i]?.thoughtSignature).toBe(p.thoughtSignature);
        });
      }),
    );
  });
});

function isText(p: Json): boolean {
  return typeof p.text === 'string' && p.thought !== true;
}

/** Stream events folded into answer parts, by the rules a whole answer is read with. */
function fold(events: readonly StreamEvent[]): AnswerPart[] {
  const out: AnswerPart[] = [];
  for (const e of events) {
    const last = out.at(-1);
    if (e.type === 'reasoning') {
      if (last?.type === 'reasoning' && last.signature === null)
        out[out.length - 1] = { ...last, text: last.text + e.text };
      else out.push({ type: 'reasoning', text: e.text, signature: null, issuer: 'gemini' });
    } else if (e.type === 'reasoning_signature') {
      if (last?.type === 'reasoning' && last.signature === null)
        out[out.length - 1] = { ...last, signature: e.signature };
      else out.push({ type: 'reasoning', text: '', signature: e.signature, issuer: e.issuer });
    } else if (e.type === 'text') {
      if (last?.type === 'text') out[out.length - 1] = { type: 'text', text: last.text + e.text };
      else out.push({ type: 'text', text: e.text });
    } else if (e.type === 'tool_call') out.push({ type: 'tool_call', id: e.id, name: e.name, arguments: '' });
    else if (e.type === 'tool_arguments' && last?.type === 'tool_call')
      out[out.length - 1] = { ...last, arguments: last.arguments + e.arguments };
  }
  return out;
}

describe('Gemini codec: streamed and whole answers agree', () => {
  const part = fc.oneof(
    fc.record({ text: fc.string({ maxLength: 8 }), thought: fc.constant(true) }),
    fc.record({ text: fc.string({ minLength: 1, maxLength: 8 }) }),
    fc.record({
      functionCall: fc.record({ name: fc.stringMatching(/^[a-z]{1,6}$/), args: fc.constant({ a: 1 }) }),
    }),
  );
  const signed = fc
    .tuple(part, fc.option(fc.base64String({ minLength: 4, maxLength: 16 }), { nil: undefined }))
    .map(([p, sig]): Json => (sig ? { ...p, thoughtSignature: sig } : p));

  it('gives the same reasoning, signatures, text and calls streamed one part per chunk as whole (property)', () => {
    fc.assert(
      fc.property(fc.array(signed, { minLength: 1, maxLength: 8 }), (parts) => {
        const whole = geminiUpstream.decodeResponse(answer(parts)).content;
        const decoder = geminiUpstream.streamDecoder();
        const events: StreamEvent[] = [];
        parts.forEach((p, i) => {
          const last = i === parts.length - 1;
          const chunk = {
            ...answer([p]),
            candidates: [
              { content: { parts: [p], role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}) },
            ],
          };
          const out = decoder.decode({ event: null, data: JSON.stringify(chunk) });
          if (out === 'malformed') throw new Error('malformed');
          events.push(...out);
        });
        expect(fold(events)).toEqual(whole);
      }),
    );
  });
});

describe('Gemini codec: system turns, cache markers, structured output', () => {
  it('sends a system turn mid-conversation as user text, joined with the next user turn', () => {
    const { body } = encode({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
        { role: 'system', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      ],
    });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Hi' }] },
      { role: 'model', parts: [{ text: 'Hello' }] },
      { role: 'user', parts: [{ text: 'Answer in French.' }, { text: 'Weather?' }] },
    ]);
  });

  it('drops cache breakpoints and prompt_cache_key, and names them', () => {
    const { body, dropped } = encode({
      system: [{ type: 'text', text: 'Be brief.', cache: { ttl: '1h' } }],
      promptCacheKey: 'tenant-1',
    });
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(JSON.stringify(body)).not.toContain('cache');
    expect(dropped).toEqual(['cache_control', 'prompt_cache_key']);
  });

  const SCHEMA = {
    type: 'object',
    properties: { city: { type: 'string' }, tags: { type: 'array', items: { $ref: '#/$defs/tag' } } },
    $defs: { tag: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  };

  it('sends a JSON schema unchanged as responseJsonSchema to Gemini 2.5 and later', () => {
    const { config } = encode({
      responseFormat: { type: 'json_schema', name: 'w', schema: SCHEMA, strict: true },
    });
    expect(config).toMatchObject({ responseMimeType: 'application/json', responseJsonSchema: SCHEMA });
    expect(config).not.toHaveProperty('responseSchema');
  });

  it('converts it to responseSchema for older models, and sends json_object as the MIME type alone', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const old = encode(
      { responseFormat: { type: 'json_schema', name: 'w', schema, strict: false } },
      'gemini-2.0-flash',
    );
    expect(old.config).toMatchObject({ responseMimeType: 'application/json', responseSchema: schema });
    expect(old.config).not.toHaveProperty('responseJsonSchema');
    const mode = encode({ responseFormat: { type: 'json_object' } });
    expect(mode.config).toEqual({ responseMimeType: 'application/json' });
  });
});

describe('Gemini codec: tool input schemas', () => {
  // Claude Code's SendMessage tool: an `allOf` that the OpenAPI subset of `parameters` cannot express.
  const tools = [
    {
      name: 'send',
      description: null,
      parameters: {
        type: 'object',
        properties: { to: { allOf: [{ type: 'string' }, { minLength: 1 }] } },
        required: ['to'],
      },
    },
  ];

  it('gives a 2.5 model the JSON Schema itself (parametersJsonSchema), whatever keywords it uses', () => {
    const { body } = encode({ tools });
    expect(body.tools).toEqual([
      { functionDeclarations: [{ name: 'send', parametersJsonSchema: tools[0]?.parameters }] },
    ]);
  });

  it('converts it for an older model, and refuses there what the subset cannot express', () => {
    expect(() => encode({ tools }, 'gemini-2.0-flash')).toThrow(/allOf/);
  });
});
