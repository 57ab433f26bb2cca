import { describe, expect, it } from 'vitest';
import { geminiUpstream } from '../../../../src/codecs/gemini/index';
import type { StreamEvent } from '../../../../src/codecs/ir';
import { GatewayError } from '../../../../src/core/errors';
import { SseFramer } from '../../../../src/sse/framer';
import {
  BLOCKED_PROMPT,
  CUT_STREAM,
  EMBEDDINGS_ANSWER,
  ERROR_BODY,
  FUNCTION_CALL_ANSWER,
  STREAM_MAX_TOKENS,
  STREAM_WITH_CALL,
  TEXT_ANSWER,
} from '../fixtures/gemini-wire';

const CONTEXT = {
  model: 'text-embedding-004',
  providerId: 'gemini',
  outputCap: 1024,
  enforceCap: true,
  dropped: [],
};

/** Every canonical event a stream decodes to, fed in small byte pieces as a network would deliver it. */
function decodeStream(text: string, pieceBytes = 7): (readonly StreamEvent[] | 'malformed')[] {
  const bytes = new TextEncoder().encode(text);
  const framer = new SseFramer();
  const decoder = geminiUpstream.streamDecoder();
  const out: (readonly StreamEvent[] | 'malformed')[] = [];
  for (let i = 0; i < bytes.length; i += pieceBytes)
    for (const frame of framer.push(bytes.subarray(i, i + pieceBytes))) out.push(decoder.decode(frame.event));
  return out;
}

const flat = (results: (readonly StreamEvent[] | 'malformed')[]): StreamEvent[] =>
  results.flatMap((r) => (r === 'malformed' ? [] : r));

describe('Gemini codec: whole answers', () => {
  it('reads a text answer, counting cached prompt tokens as input and thoughts as output', () => {
    const r = geminiUpstream.decodeResponse(TEXT_ANSWER);
    expect(r.id).toBe('Il0taoSYJ5Cez7IPq8yRgQk');
    expect(r.model).toBe('gemini-2.5-flash');
    expect(r.content).toEqual([{ type: 'text', text: 'The sky is blue because of Rayleigh scattering.' }]);
    expect(r.finish).toBe('end');
    expect(r.usage).toEqual({
      input: 2057,
      output: 23,
      cacheRead: 2048,
      cacheWrite: 0,
      cacheWrite1h: 0,
      reasoning: 12,
    });
  });

  it('reads function calls with stable made-up ids, their arguments as JSON text, and STOP as tool_calls', () => {
    const r = geminiUpstream.decodeResponse(FUNCTION_CALL_ANSWER);
    expect(r.content).toEqual([
      { type: 'reasoning', text: '', signature: 'CiQB0e2Kb4yX', issuer: 'gemini' },
      {
        type: 'tool_call',
        id: 'call_pB8taqfNAeSfz7IP1Pbc8Qw_0',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
      {
        type: 'tool_call',
        id: 'call_pB8taqfNAeSfz7IP1Pbc8Qw_1',
        name: 'get_weather',
        arguments: '{"city":"London","unit":"celsius"}',
      },
    ]);
    expect(r.finish).toBe('tool_calls');
    expect(geminiUpstream.decodeResponse(FUNCTION_CALL_ANSWER).content).toEqual(r.content);
  });

  it("uses the call's own id when Gemini gives one", () => {
    const body = structuredClone(FUNCTION_CALL_ANSWER);
    (body.candidates[0]?.content.parts[0]?.functionCall as Record<string, unknown>).id = 'fc-7';
    expect(geminiUpstream.decodeResponse(body).content[1]).toMatchObject({ id: 'fc-7' });
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['OTHER', 'end'],
    ['MALFORMED_FUNCTION_CALL', 'end'],
  ])('maps finishReason %s to %s', (reason, finish) => {
    const body = structuredClone(TEXT_ANSWER);
    (body.candidates[0] as Record<string, unknown>).finishReason = reason;
    expect(geminiUpstream.decodeResponse(body).finish).toBe(finish);
  });

  it('reads a blocked prompt as an empty, content-filtered answer', () => {
    const r = geminiUpstream.decodeResponse(BLOCKED_PROMPT);
    expect(r.content).toEqual([]);
    expect(r.finish).toBe('content_filter');
    expect(r.usage).toEqual({
      input: 8,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      cacheWrite1h: 0,
      reasoning: 0,
    });
  });

  it('reads thought summaries as reasoning parts before the text', () => {
    const body = structuredClone(TEXT_ANSWER);
    (body.candidates[0]?.content.parts as unknown[] | undefined)?.unshift({
      text: 'Thinking about light…',
      thought: true,
    });
    expect(geminiUpstream.decodeResponse(body).content).toEqual([
      { type: 'reasoning', text: 'Thinking about light…', signature: null, issuer: 'gemini' },
      ...(TEXT_ANSWER.candidates[0]?.content.parts.map((p) => ({ type: 'text', text: p.text })) ?? []),
    ]);
  });

  it('refuses an answer without candidates as a 502 from the provider', () => {
    const err = (() => {
      try {
        geminiUpstream.decodeResponse({ usageMetadata: {} });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 502, code: 'bad_upstream_response', source: 'provider' });
  });
});

describe('Gemini codec: streams', () => {
  it('decodes text, a whole function call, the finish and the usage, then ends after the last chunk', () => {
    const results = decodeStream(STREAM_WITH_CALL);
    expect(results).not.toContain('malformed');
    expect(flat(results)).toEqual([
      { type: 'start', id: 'q3UtaoKmLuKWz7IP', model: 'gemini-2.0-flash' },
      { type: 'text', text: 'Let me check' },
      { type: 'usage', usage: { input: 61, cacheRead: 0 } },
      { type: 'text', text: ' the weather.' },
      { type: 'tool_call', index: 0, id: 'call_q3UtaoKmLuKWz7IP_0', name: 'get_weather' },
      { type: 'tool_arguments', index: 0, arguments: '{"city":"Paris"}' },
      { type: 'finish', reason: 'tool_calls', stopSequence: null },
      {
        type: 'usage',
        usage: { input: 61, output: 19, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 },
      },
      { type: 'end' },
    ]);
  });

  it('gives a cut stream no end, so the relay can tell it from a complete one', () => {
    const events = flat(decodeStream(CUT_STREAM));
    expect(events.map((e) => e.type)).toEqual(['start', 'text', 'usage']);
  });

  it('maps MAX_TOKENS in a stream to a length finish', () => {
    const events = flat(decodeStream(STREAM_MAX_TOKENS, 1000));
    expect(events.filter((e) => e.type === 'text').map((e) => (e.type === 'text' ? e.text : ''))).toEqual([
      'Once upon',
      ' a time',
    ]);
    expect(events.slice(-3)).toEqual([
      { type: 'finish', reason: 'length', stopSequence: null },
      {
        type: 'usage',
        usage: { input: 5, output: 4, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 },
      },
      { type: 'end' },
    ]);
  });

  it('waits for usage when the finish chunk has none, and ignores anything after the end', () => {
    const decoder = geminiUpstream.streamDecoder();
    const chunk = (v: unknown) => decoder.decode({ event: null, data: JSON.stringify(v) });
    chunk({ candidates: [{ content: { parts: [{ text: 'Hi' }], role: 'model' } }] });
    expect(chunk({ candidates: [{ finishReason: 'STOP' }] })).toEqual([
      { type: 'finish', reason: 'end', stopSequence: null },
    ]);
    expect(chunk({ usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1 } })).toEqual([
      {
        type: 'usage',
        usage: { input: 3, output: 1, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 },
      },
      { type: 'end' },
    ]);
    expect(chunk({ candidates: [{ content: { parts: [{ text: 'late' }] } }] })).toEqual([]);
  });

  it('reports a truncated event as malformed and an error event as an error', () => {
    const decoder = geminiUpstream.streamDecoder();
    expect(decoder.decode({ event: null, data: '{"candidates": [' })).toBe('malformed');
    expect(
      decoder.decode({
        event: null,
        data: JSON.stringify({ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } }),
      }),
    ).toEqual([{ type: 'error', message: 'overloaded', errorType: 'UNAVAILABLE' }]);
  });
});

describe('Gemini codec: errors and embeddings', () => {
  it('reads the error envelope, its status word as the type', () => {
    expect(geminiUpstream.decodeError(ERROR_BODY, new Headers())).toEqual({
      message: 'API key not valid. Please pass a valid API key.',
      type: 'INVALID_ARGUMENT',
    });
    expect(geminiUpstream.decodeError([ERROR_BODY], new Headers()).type).toBe('INVALID_ARGUMENT');
    expect(geminiUpstream.decodeError(null, new Headers())).toEqual({ message: null, type: null });
  });

  it('writes one batch request per text with the model path and dimensions', () => {
    const body = geminiUpstream.embeddings?.encodeRequest({ inputs: ['a', 'b'], dimensions: 256 }, CONTEXT);
    expect(body).toEqual({
      requests: [
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'a' }] },
          outputDimensionality: 256,
        },
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'b' }] },
          outputDimensionality: 256,
        },
      ],
    });
  });

  it('refuses more texts than one batch takes, naming input', () => {
    const inputs = Array.from({ length: 101 }, () => 'x');
    expect(() => geminiUpstream.embeddings?.encodeRequest({ inputs, dimensions: null }, CONTEXT)).toThrow(
      expect.objectContaining({ status: 400, param: 'input', code: 'unsupported_parameter' }),
    );
  });

  it('reads vectors in order and counts input tokens with the gateway estimate', () => {
    const decode = geminiUpstream.embeddings?.decodeResponse as (
      body: unknown,
      model: string,
      request?: { inputs: string[]; dimensions: null },
    ) => unknown;
    expect(
      decode(EMBEDDINGS_ANSWER, 'text-embedding-004', {
        inputs: ['hello world!', 'héllo'],
        dimensions: null,
      }),
    ).toEqual({
      vectors: EMBEDDINGS_ANSWER.embeddings.map((e) => e.values),
      model: 'text-embedding-004',
      // 'hello world!': 12 ASCII chars → 3; 'héllo': 4 ASCII → 1, plus 1 other → 2.
      inputTokens: 5,
    });
    expect(() => decode({ embeddings: [{ values: ['x'] }] }, 'm')).toThrow(
      expect.objectContaining({ status: 502 }),
    );
  });
});
