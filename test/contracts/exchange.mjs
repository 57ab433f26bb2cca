/**
 * One call to the mock LLM, in-process: a provider-format body sent the way the gateway's provider
 * sends it (path, credential header, SigV4 for Bedrock; see src/providers/) to the mock's own fetch
 * handler, and its answer read back as the provider frames it: a JSON body, SSE events (OpenAI's
 * chat and Responses APIs, Anthropic, Gemini with `alt=sse`) or AWS event-stream messages
 * (Bedrock's ConverseStream).
 */
import { EventStreamCodec } from '@smithy/core/event-streams';
import { AwsClient } from 'aws4fetch';

const BASE = 'http://mock-llm.internal';

/** The path of an endpoint in a format's API (`model` URL-encoded where the path carries it). */
function pathOf(format, endpoint, model, stream) {
  const id = encodeURIComponent(model);
  const paths = {
    openai: { chat: '/v1/chat/completions', embeddings: '/v1/embeddings' },
    responses: { chat: '/v1/responses' },
    anthropic: { chat: '/v1/messages', countTokens: '/v1/messages/count_tokens' },
    gemini: {
      chat: `/v1beta/models/${id}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      embeddings: `/v1beta/models/${id}:batchEmbedContents`,
    },
    bedrock: { chat: `/model/${id}/${stream ? 'converse-stream' : 'converse'}` },
  };
  const path = paths[format]?.[endpoint];
  if (!path) throw new Error(`exchange: no ${endpoint} route for ${format}`);
  return path;
}

/** The credential header each format's provider sends (none when `keyless`, to draw the error answer). */
function credential(format, keyless) {
  if (keyless) return {};
  if (format === 'openai' || format === 'responses') return { authorization: 'Bearer contract-key' };
  if (format === 'anthropic') return { 'x-api-key': 'contract-key', 'anthropic-version': '2023-06-01' };
  if (format === 'gemini') return { 'x-goog-api-key': 'contract-key' };
  return {};
}

/** The request the gateway's provider for `format` would send (src/providers/). */
async function requestFor(
  subjects,
  format,
  body,
  { model, endpoint = 'chat', stream = false, keyless = false },
) {
  const url = `${BASE}${pathOf(format, endpoint, model, stream)}`;
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...credential(format, keyless) },
    body: JSON.stringify(body),
  };
  if (format !== 'bedrock' || keyless) return new Request(url, init);
  const aws = new AwsClient({
    accessKeyId: subjects.MOCK_ACCESS_KEY_ID,
    secretAccessKey: subjects.MOCK_SECRET_ACCESS_KEY,
    service: 'bedrock',
    region: 'us-east-1',
    retries: 0,
  });
  return aws.sign(url, init);
}

/** SSE events as { event, data } (data parsed as JSON, or the raw text when it is not JSON). */
export function parseSse(text) {
  const events = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event = null;
    const data = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length === 0) continue;
    const raw = data.join('\n');
    let parsed = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {}
    events.push({ event, data: parsed, raw });
  }
  return events;
}

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/** AWS event-stream messages as { event, data } (`:event-type` or `:exception-type`, payload JSON). */
export function parseEventStream(bytes) {
  const events = [];
  for (let at = 0; at < bytes.byteLength; ) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0);
    const { headers, body } = codec.decode(bytes.subarray(at, at + length));
    const header = (name) => String(headers[name]?.value ?? '');
    const raw = new TextDecoder().decode(body);
    events.push({ event: header(':event-type') || header(':exception-type'), data: JSON.parse(raw), raw });
    at += length;
  }
  return events;
}

/**
 * Sends `body` in `format` to the mock (`options`: model, endpoint `chat` | `embeddings` |
 * `countTokens`, stream — Gemini and Bedrock say it in the path —, keyless); the answer as
 * { status, headers, json } or { status, headers, events }.
 */
export async function exchange(subjects, format, body, options) {
  const response = await subjects.mockLlm.fetch(await requestFor(subjects, format, body, options));
  const type = response.headers.get('content-type') ?? '';
  const { status, headers } = response;
  if (type.includes('text/event-stream')) return { status, headers, events: parseSse(await response.text()) };
  if (type.includes('vnd.amazon.eventstream'))
    return { status, headers, events: parseEventStream(new Uint8Array(await response.arrayBuffer())) };
  return { status, headers, json: await response.json() };
}
