/**
 * Test helpers for the Bedrock fake: SigV4-signed Converse calls with the
 * mock's example credentials, and a decoder for the binary event stream.
 */
import { EventStreamCodec } from '@smithy/core/event-streams';
import { AwsClient } from 'aws4fetch';
import { SELF } from 'cloudflare:test';
import { MOCK_ACCESS_KEY_ID, MOCK_SECRET_ACCESS_KEY } from '../../workers/mock-llm/src/bedrock-auth';
import { BASE } from './helpers';

export const MODEL = 'anthropic.claude-3-5-sonnet-20240620-v1:0';

export const aws = new AwsClient({
  accessKeyId: MOCK_ACCESS_KEY_ID,
  secretAccessKey: MOCK_SECRET_ACCESS_KEY,
  service: 'bedrock',
  region: 'us-east-1',
  retries: 0,
});

export type Operation = 'converse' | 'converse-stream' | 'count-tokens';

export const url = (model: string, operation: Operation) =>
  `${BASE}/model/${encodeURIComponent(model)}/${operation}`;

export async function signed(
  body: unknown,
  options: {
    model?: string;
    stream?: boolean;
    operation?: Operation;
    client?: AwsClient;
    headers?: Record<string, string>;
  } = {},
): Promise<Request> {
  const operation = options.operation ?? (options.stream ? 'converse-stream' : 'converse');
  return (options.client ?? aws).sign(url(options.model ?? MODEL, operation), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify(body),
  });
}

export const converse = async (body: unknown, options: Parameters<typeof signed>[1] = {}) =>
  SELF.fetch(await signed(body, options));

export interface Message {
  readonly type: string;
  readonly messageType: string;
  readonly payload: Record<string, unknown>;
}

const codec = new EventStreamCodec(
  (b) => new TextDecoder().decode(b),
  (s) => new TextEncoder().encode(s),
);

/** Splits a binary event stream into decoded messages; a message that does not decode throws. */
export function decodeStream(bytes: Uint8Array): Message[] {
  const out: Message[] = [];
  for (let at = 0; at < bytes.byteLength; ) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0);
    const { headers, body } = codec.decode(bytes.subarray(at, at + length));
    const header = (name: string) => String(headers[name]?.value ?? '');
    out.push({
      type: header(':event-type') || header(':exception-type'),
      messageType: header(':message-type'),
      payload: JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>,
    });
    at += length;
  }
  return out;
}
