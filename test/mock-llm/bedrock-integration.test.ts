import { AwsClient } from 'aws4fetch';
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MOCK_ACCESS_KEY_ID, MOCK_SECRET_ACCESS_KEY } from '../../workers/mock-llm/src/bedrock-auth';
import { promptTokens } from '../../workers/mock-llm/src/text';
import { aws, converse, decodeStream, MODEL, signed, url } from './bedrock-helpers';
import { BASE } from './helpers';
const HELLO = [{ role: 'user', content: [{ text: 'Hello there, mock.' }] }];
const WEATHER = { toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } };

async function streamMessages(body: Record<string, unknown>, options: Parameters<typeof signed>[1] = {}) {
  const res = await converse(body, { ...options, stream: true });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
  return decodeStream(new Uint8Array(await res.arrayBuffer()));
}

async function expectAwsError(res: Response, status: number, type: string, message?: RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get('x-amzn-errortype')).toMatch(
    new RegExp(`^${type}:http://internal\\.amazon\\.com/coral/`),
  );
  expect(res.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
  const body = (await res.json()) as { message: string };
  if (message) expect(body.message).toMatch(message);
}

describe('Bedrock fake: Converse', () => {
  it('answers a signed request with generated words and usage by the documented rule', async () => {
    const res = await converse({ messages: HELLO, system: [{ text: 'Be brief.' }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await res.json()) as {
      output: { message: { role: string; content: { text: string }[] } };
      stopReason: string;
      usage: Record<string, number>;
    };
    expect(body.output.message.role).toBe('assistant');
    expect(body.output.message.content[0]!.text.split(' ')).toHaveLength(16);
    expect(body.stopReason).toBe('end_turn');
    const input = promptTokens([{ role: 'system', content: [{ text: 'Be brief.' }] }, ...HELLO]);
    expect(body.usage).toEqual({ inputTokens: input, outputTokens: 16, totalTokens: input + 16 });
  });

  it('echoes with an echo model and stops at maxTokens with max_tokens', async () => {
    const res = await converse({ messages: HELLO, inferenceConfig: { maxTokens: 2 } }, { model: 'echo-1' });
    const body = (await res.json()) as {
      output: { message: { content: { text: string }[] } };
      stopReason: string;
    };
    expect(body.output.message.content[0]!.text).toBe('Hello there,');
    expect(body.stopReason).toBe('max_tokens');
  });

  it('calls a tool when the tool choice forces one, and with mock.tool_call', async () => {
    for (const toolConfig of [
      { tools: [WEATHER], toolChoice: { any: {} } },
      { tools: [WEATHER], toolChoice: { tool: { name: 'get_weather' } } },
    ]) {
      const body = (await (await converse({ messages: HELLO, toolConfig })).json()) as {
        output: { message: { content: { toolUse: { toolUseId: string; name: string; input: unknown } }[] } };
        stopReason: string;
        usage: { outputTokens: number };
      };
      expect(body.stopReason).toBe('tool_use');
      expect(body.output.message.content[0]!.toolUse).toMatchObject({ name: 'get_weather', input: {} });
      expect(body.output.message.content[0]!.toolUse.toolUseId).toMatch(/^tooluse_[A-Za-z0-9]{22}$/);
      expect(body.usage.outputTokens).toBe(8);
    }
    const auto = (await (
      await converse({ messages: HELLO, toolConfig: { tools: [WEATHER] }, mock: { tool_call: true } })
    ).json()) as {
      stopReason: string;
    };
    expect(auto.stopReason).toBe('tool_use');
    const text = (await (await converse({ messages: HELLO, toolConfig: { tools: [WEATHER] } })).json()) as {
      stopReason: string;
    };
    expect(text.stopReason).toBe('end_turn');
  });

  it('accepts a conversation with tool use and results when tools are configured', async () => {
    const res = await converse({
      messages: [
        ...HELLO,
        {
          role: 'assistant',
          content: [{ toolUse: { toolUseId: 't1', name: 'get_weather', input: { city: 'Paris' } } }],
        },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 't1', content: [{ text: '18C' }], status: 'success' } }],
        },
      ],
      toolConfig: { tools: [WEATHER] },
    });
    expect(res.status).toBe(200);
  });
});

describe('Bedrock fake: ConverseStream', () => {
  it('streams the same words as binary event-stream messages, ending with messageStop and metadata', async () => {
    const json = (await (await converse({ messages: HELLO })).json()) as {
      output: { message: { content: { text: string }[] } };
    };
    const messages = await streamMessages({ messages: HELLO });
    expect(messages.every((m) => m.messageType === 'event')).toBe(true);
    expect(messages.map((m) => m.type)).toEqual([
      'messageStart',
      ...Array(16).fill('contentBlockDelta'),
      'contentBlockStop',
      'messageStop',
      'metadata',
    ]);
    const text = messages
      .filter((m) => m.type === 'contentBlockDelta')
      .map((m) => (m.payload.delta as { text: string }).text)
      .join('');
    expect(text).toBe(json.output.message.content[0]!.text);
    expect(messages.at(-2)!.payload).toMatchObject({ stopReason: 'end_turn' });
    expect(messages.at(-1)!.payload).toMatchObject({
      usage: { inputTokens: 12, outputTokens: 16, totalTokens: 28 },
    });
    expect(messages[0]!.payload.p).toEqual(expect.any(String));
  });

  it('streams a tool call as contentBlockStart and a toolUse input delta', async () => {
    const messages = await streamMessages({
      messages: HELLO,
      toolConfig: { tools: [WEATHER], toolChoice: { any: {} } },
    });
    expect(messages.map((m) => m.type)).toEqual([
      'messageStart',
      'contentBlockStart',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
    ]);
    expect(messages[1]!.payload).toMatchObject({
      contentBlockIndex: 0,
      start: { toolUse: { name: 'get_weather' } },
    });
    expect(messages[2]!.payload).toMatchObject({ delta: { toolUse: { input: '{}' } } });
    expect(messages[4]!.payload).toMatchObject({ stopReason: 'tool_use' });
  });

  it('cuts the stream after N deltas with mock.cut_after, also when written into the model id', async () => {
    const cut = await streamMessages({ messages: HELLO, mock: { cut_after: 2 } });
    expect(cut.map((m) => m.type)).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockDelta']);
    const viaModel = await streamMessages({ messages: HELLO }, { model: `${MODEL};cut_after=1` });
    expect(viaModel.map((m) => m.type)).toEqual(['messageStart', 'contentBlockDelta']);
  });

  it('sends a message with a bad checksum with mock.malformed_after', async () => {
    const res = await converse({ messages: HELLO, mock: { malformed_after: 1 } }, { stream: true });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(() => decodeStream(bytes)).toThrow(/checksum/);
  });

  it('fails the body mid-stream with mock.reset_after', async () => {
    const res = await converse({ messages: HELLO, mock: { reset_after: 2, pace_ms: 1 } }, { stream: true });
    await expect(res.arrayBuffer()).rejects.toThrow();
  });
});

describe('Bedrock fake: signature checks', () => {
  it('answers 403 MissingAuthenticationTokenException without an Authorization header', async () => {
    const res = await SELF.fetch(url(MODEL, 'converse'), {
      method: 'POST',
      body: JSON.stringify({ messages: HELLO }),
    });
    await expectAwsError(res, 403, 'MissingAuthenticationTokenException', /^Missing Authentication Token$/);
  });

  it('answers 403 InvalidSignatureException for a wrong secret or a body changed after signing', async () => {
    const wrong = new AwsClient({
      accessKeyId: MOCK_ACCESS_KEY_ID,
      secretAccessKey: 'not-the-secret',
      service: 'bedrock',
      region: 'us-east-1',
    });
    await expectAwsError(
      await converse({ messages: HELLO }, { client: wrong }),
      403,
      'InvalidSignatureException',
      /does not match the signature you provided/,
    );
    const request = await signed({ messages: HELLO });
    const tampered = new Request(request, {
      body: JSON.stringify({ messages: HELLO, system: [{ text: 'x' }] }),
    });
    await expectAwsError(await SELF.fetch(tampered), 403, 'InvalidSignatureException', /does not match/);
  });

  it('answers 403 for an unknown access key, a foreign service scope and an expired date', async () => {
    const stranger = new AwsClient({
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: MOCK_SECRET_ACCESS_KEY,
      service: 'bedrock',
      region: 'us-east-1',
    });
    await expectAwsError(
      await converse({ messages: HELLO }, { client: stranger }),
      403,
      'UnrecognizedClientException',
      /security token included in the request is invalid/,
    );
    const s3 = new AwsClient({
      accessKeyId: MOCK_ACCESS_KEY_ID,
      secretAccessKey: MOCK_SECRET_ACCESS_KEY,
      service: 's3',
      region: 'us-east-1',
    });
    await expectAwsError(
      await converse({ messages: HELLO }, { client: s3 }),
      403,
      'InvalidSignatureException',
      /scoped to correct service: 'bedrock'/,
    );
    const old = await aws.sign(url(MODEL, 'converse'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: HELLO }),
      aws: { datetime: '20150830T123600Z' },
    });
    await expectAwsError(
      await SELF.fetch(old),
      403,
      'InvalidSignatureException',
      /^Signature expired: 20150830T123600Z is now earlier than/,
    );
  });
});

describe('Bedrock fake: validation and injected errors', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      'a conversation opened by the assistant',
      { messages: [{ role: 'assistant', content: [{ text: 'Hi' }] }] },
      /must start with a user message/,
    ],
    [
      'two user turns in a row',
      { messages: [...HELLO, ...HELLO] },
      /must alternate between user and assistant roles/,
    ],
    ['a blank text block', { messages: [{ role: 'user', content: [{ text: ' ' }] }] }, /is blank/],
    [
      'a bad role',
      { messages: [{ role: 'system', content: [{ text: 'x' }] }] },
      /at 'messages\.1\.member\.role' failed to satisfy constraint/,
    ],
    ['maxTokens 0', { messages: HELLO, inferenceConfig: { maxTokens: 0 } }, /inferenceConfig\.maxTokens/],
    [
      'tool use without toolConfig',
      {
        messages: [
          ...HELLO,
          { role: 'assistant', content: [{ toolUse: { toolUseId: 't', name: 'f', input: {} } }] },
        ],
      },
      /toolConfig field must be defined/,
    ],
    ['an unknown field', { messages: HELLO, model: MODEL }, /extraneous key \[model\]/],
    [
      'an image URL in place of bytes',
      { messages: [{ role: 'user', content: [{ image: { format: 'png', source: { url: 'https://x' } } }] }] },
      /source\.bytes/,
    ],
    [
      'a document of an unknown format',
      {
        messages: [
          {
            role: 'user',
            content: [{ document: { format: 'rtf', name: 'a', source: { bytes: 'JVBERg==' } } }],
          },
        ],
      },
      /document\.format/,
    ],
    [
      'a document name with a dot',
      {
        messages: [
          {
            role: 'user',
            content: [{ document: { format: 'pdf', name: 'a.pdf', source: { bytes: 'JVBERg==' } } }],
          },
        ],
      },
      /document\.name/,
    ],
  ];
  for (const [name, body, message] of cases) {
    it(`answers 400 ValidationException for ${name}`, async () => {
      await expectAwsError(await converse(body), 400, 'ValidationException', message);
    });
  }

  it('answers a user turn holding a document block (format, name, base64 bytes)', async () => {
    const document = { format: 'pdf', name: 'Q3 report (v2)', source: { bytes: btoa('%PDF-1.4 %%EOF') } };
    const res = await converse({
      messages: [{ role: 'user', content: [{ text: 'Summarise this.' }, { document }] }],
    });
    expect(res.status).toBe(200);
  });

  it('refuses top_k in additionalModelRequestFields for a model that has none', async () => {
    const body = { messages: HELLO, additionalModelRequestFields: { top_k: 5 } };
    expect((await converse(body)).status).toBe(200);
    await expectAwsError(
      await converse(body, { model: 'meta.llama3-1-8b-instruct-v1:0' }),
      400,
      'ValidationException',
      /extraneous key \[top_k\]/,
    );
  });

  it('injects errors in Bedrock envelope with mock.status', async () => {
    await expectAwsError(
      await converse({ messages: HELLO, mock: { status: 429 } }),
      429,
      'ThrottlingException',
      /Too many requests/,
    );
    await expectAwsError(
      await converse({ messages: HELLO, mock: { status: 503 } }, { stream: true }),
      503,
      'ServiceUnavailableException',
    );
  });

  it('answers 404 UnknownOperationException for another operation', async () => {
    const res = await SELF.fetch(
      await aws.sign(`${BASE}/model/${MODEL}/invoke`, { method: 'POST', body: '{}' }),
    );
    await expectAwsError(res, 404, 'UnknownOperationException');
  });
});
