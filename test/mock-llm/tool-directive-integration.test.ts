import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { converse, decodeStream } from './bedrock-helpers';
import { BASE, chunksOf, parseSse, postAnthropic, postOpenAI } from './helpers';

type Json = Record<string, unknown>;
const ARGS = { file_path: '/tmp/out.txt', content: 'hello' };
const ASK = `Please write the file.\nTOOL Write ${JSON.stringify(ARGS)}`;
const SCHEMA = { type: 'object', properties: { file_path: { type: 'string' }, content: { type: 'string' } } };

describe('scripted tool calls: Anthropic', () => {
  const tools = [
    { name: 'Read', input_schema: SCHEMA },
    { name: 'Write', input_schema: SCHEMA },
  ];
  const body = (messages: unknown[], extra: Json = {}) => ({
    model: 'echo',
    max_tokens: 256,
    tools,
    messages,
    ...extra,
  });

  it('calls the named tool with exactly the JSON of the TOOL line, JSON and streamed', async () => {
    const messages = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'context' },
          { type: 'text', text: ASK },
        ],
      },
    ];
    const json = (await (await postAnthropic('/v1/messages', body(messages))).json()) as {
      content: Json[];
      stop_reason: string;
    };
    expect(json.stop_reason).toBe('tool_use');
    expect(json.content[0]).toMatchObject({ type: 'tool_use', name: 'Write', input: ARGS });
    const events = parseSse(
      await (await postAnthropic('/v1/messages', body(messages, { stream: true }))).text(),
    );
    const partial = events
      .map((e) => JSON.parse(e.data) as { delta?: { partial_json?: string } })
      .map((e) => e.delta?.partial_json ?? '')
      .join('');
    expect(JSON.parse(partial)).toEqual(ARGS);
  });

  it('answers a tool result with text, and ignores a TOOL line for a tool not offered', async () => {
    const messages = [
      { role: 'user', content: ASK },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: ARGS }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Wrote 5 bytes' }] },
    ];
    const json = (await (await postAnthropic('/v1/messages', body(messages))).json()) as {
      content: Json[];
      stop_reason: string;
    };
    expect(json.stop_reason).toBe('end_turn');
    expect(json.content[0]).toEqual({ type: 'text', text: 'Tool result: Wrote 5 bytes' });
    const other = (await (
      await postAnthropic('/v1/messages', body([{ role: 'user', content: 'TOOL Delete {}' }]))
    ).json()) as {
      content: Json[];
    };
    expect(other.content[0]).toEqual({ type: 'text', text: 'TOOL Delete {}' });
  });

  it('picks a tool by name with mock.tool_name, arguments from its schema', async () => {
    const json = (await (
      await postAnthropic(
        '/v1/messages',
        body([{ role: 'user', content: 'hi' }], { mock: { tool_name: 'Read' } }),
      )
    ).json()) as { content: Json[] };
    expect(json.content[0]).toMatchObject({
      name: 'Read',
      input: { file_path: 'string', content: 'string' },
    });
  });
});

describe('scripted tool calls: OpenAI', () => {
  const tools = [{ type: 'function', function: { name: 'Write', parameters: SCHEMA } }];
  const chat = (messages: unknown[], extra: Json = {}) =>
    postOpenAI('/v1/chat/completions', { model: 'echo', tools, messages, ...extra });

  it('calls the tool from a TOOL line, JSON and streamed', async () => {
    const json = (await (await chat([{ role: 'user', content: ASK }])).json()) as {
      choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[];
    };
    const call = json.choices[0]!.message.tool_calls[0]!;
    expect(call.function.name).toBe('Write');
    expect(JSON.parse(call.function.arguments)).toEqual(ARGS);
    const chunks = chunksOf(
      parseSse(await (await chat([{ role: 'user', content: ASK }], { stream: true })).text()),
    );
    const args = chunks
      .flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])
      .map((d) => d.function.arguments)
      .join('');
    expect(JSON.parse(args)).toEqual(ARGS);
  });

  it('answers tool messages with text', async () => {
    const json = (await (
      await chat([
        { role: 'user', content: ASK },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Write', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'done' },
      ])
    ).json()) as { choices: { message: { content: string }; finish_reason: string }[] };
    expect(json.choices[0]).toMatchObject({
      message: { content: 'Tool result: done' },
      finish_reason: 'stop',
    });
  });
});

describe('scripted tool calls: Gemini and Bedrock', () => {
  const gemini = (body: Json, method = 'generateContent') =>
    SELF.fetch(
      `${BASE}/v1beta/models/echo:${method}${method === 'streamGenerateContent' ? '?alt=sse' : ''}`,
      {
        method: 'POST',
        headers: { 'x-goog-api-key': 'k', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
    );
  const functionDeclarations = [{ name: 'Write', parametersJsonSchema: SCHEMA }];

  it('Gemini: a functionCall with the scripted args, and text for a functionResponse', async () => {
    const body = { contents: [{ role: 'user', parts: [{ text: ASK }] }], tools: [{ functionDeclarations }] };
    const json = (await (await gemini(body)).json()) as { candidates: { content: { parts: Json[] } }[] };
    expect(json.candidates[0]!.content.parts[0]).toEqual({ functionCall: { name: 'Write', args: ARGS } });
    const streamed = await (await gemini(body, 'streamGenerateContent')).text();
    expect(streamed).toContain(JSON.stringify({ functionCall: { name: 'Write', args: ARGS } }));
    const result = {
      ...body,
      contents: [
        ...body.contents,
        { role: 'model', parts: [{ functionCall: { name: 'Write', args: ARGS } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'Write', response: { output: 'ok' } } }] },
      ],
    };
    const answer = (await (await gemini(result)).json()) as { candidates: { content: { parts: Json[] } }[] };
    expect(answer.candidates[0]!.content.parts[0]).toEqual({ text: 'Tool result: ok' });
  });

  it('Bedrock: a toolUse with the scripted input, JSON and streamed', async () => {
    const body = {
      messages: [{ role: 'user', content: [{ text: ASK }] }],
      toolConfig: { tools: [{ toolSpec: { name: 'Write', inputSchema: { json: SCHEMA } } }] },
    };
    const json = (await (await converse(body, { model: 'us.anthropic.echo' })).json()) as {
      output: { message: { content: Json[] } };
    };
    expect(json.output.message.content[0]).toMatchObject({ toolUse: { name: 'Write', input: ARGS } });
    const res = await converse(body, { model: 'us.anthropic.echo', stream: true });
    const events = decodeStream(new Uint8Array(await res.arrayBuffer()));
    const input = events
      .filter((e) => e.type === 'contentBlockDelta')
      .map((e) => (e.payload.delta as { toolUse?: { input: string } }).toolUse?.input ?? '')
      .join('');
    expect(JSON.parse(input)).toEqual(ARGS);
  });
});
