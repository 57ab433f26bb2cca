/**
 * The official `openai` SDK reads what the Responses codec writes: its `responses.stream` helper
 * accumulates our events into the response (it throws on an event out of place, such as a delta for
 * an item never added), and `responses.create` reads our JSON answer, `output_text` included.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { AnswerContext } from '../../../../src/codecs/codec';
import type { ChatResponse, StreamEvent } from '../../../../src/codecs/ir';
import { decodeResponsesRequest } from '../../../../src/codecs/responses/request';
import { encodeResponsesResponse } from '../../../../src/codecs/responses/response';
import { responsesStreamEncoder } from '../../../../src/codecs/responses/stream';
import { serialiseFrame } from '../../../../src/codecs/translate-stream';

const body = {
  model: 'claude-sonnet-4-5',
  input: 'Patch it.',
  tools: [
    { type: 'function', name: 'read_file', parameters: { type: 'object' }, strict: false },
    { type: 'custom', name: 'apply_patch' },
  ],
  reasoning: { effort: 'medium', summary: 'auto' },
};
const context: AnswerContext = { request: decodeResponsesRequest(body), body, responseId: 'resp_sdk1' };
const usage = { input: 30, output: 12, cacheRead: 10, cacheWrite: 0, cacheWrite1h: 0, reasoning: 4 };

/** An OpenAI client whose every call is answered with `answer`. */
function clientAnswering(answer: () => Response): OpenAI {
  return new OpenAI({
    apiKey: 'k',
    baseURL: 'http://gw.test/v1',
    maxRetries: 0,
    fetch: async () => answer(),
  });
}

describe("the openai SDK's Responses helpers", () => {
  it('accumulate our stream into the same response the stream completes with', async () => {
    const events: StreamEvent[] = [
      { type: 'start', id: 'msg_01', model: 'claude-sonnet-4-5' },
      { type: 'reasoning', text: 'Read first.' },
      { type: 'reasoning_signature', signature: 'EqQB', issuer: 'anthropic' },
      { type: 'text', text: 'Reading ' },
      { type: 'text', text: 'then patching.' },
      { type: 'tool_call', index: 0, id: 'toolu_1', name: 'read_file' },
      { type: 'tool_arguments', index: 0, arguments: '{"path":' },
      { type: 'tool_arguments', index: 0, arguments: '"a.ts"}' },
      { type: 'tool_call', index: 1, id: 'toolu_2', name: 'apply_patch' },
      { type: 'tool_arguments', index: 1, arguments: '{"input":"*** Begin Patch"}' },
      { type: 'finish', reason: 'tool_calls', stopSequence: null },
      { type: 'usage', usage },
      { type: 'end' },
    ];
    const encoder = responsesStreamEncoder({ includeUsage: false, context });
    const wire = events
      .flatMap((e) => encoder.encode(e))
      .map(serialiseFrame)
      .join('');
    const client = clientAnswering(
      () => new Response(wire, { headers: { 'content-type': 'text/event-stream' } }),
    );
    const stream = client.responses.stream({ model: 'claude-sonnet-4-5', input: 'Patch it.' });
    const seen: string[] = [];
    stream.on('event', (e) => seen.push(e.type));
    const final = await stream.finalResponse();
    expect(seen.at(-1)).toBe('response.completed');
    expect(final.id).toBe('resp_sdk1');
    expect(final.output_text).toBe('Reading then patching.');
    expect(final.output.map((i) => i.type)).toEqual([
      'reasoning',
      'message',
      'function_call',
      'custom_tool_call',
    ]);
    expect(final.output[0]).toMatchObject({ encrypted_content: 'edgeway:anthropic:EqQB' });
    expect(final.output[2]).toMatchObject({ call_id: 'toolu_1', arguments: '{"path":"a.ts"}' });
    expect(final.output[3]).toMatchObject({ call_id: 'toolu_2', input: '*** Begin Patch' });
    expect(final.usage?.input_tokens_details.cached_tokens).toBe(10);
  });

  it('read our JSON answer, output_text included', async () => {
    const answer: ChatResponse = {
      id: 'msg_02',
      model: 'claude-sonnet-4-5',
      created: 1_700_000_000,
      content: [{ type: 'text', text: 'Done.' }],
      finish: 'end',
      stopSequence: null,
      usage,
    };
    const json = encodeResponsesResponse(answer, context);
    const client = clientAnswering(() => Response.json(json));
    const response = await client.responses.create({ model: 'claude-sonnet-4-5', input: 'Patch it.' });
    expect(response.output_text).toBe('Done.');
    expect(response.status).toBe('completed');
    expect(response.tools).toEqual(body.tools);
  });
});
