/**
 * AWS Bedrock through the Converse API: `bedrock/<model id>` → POST
 * /model/<id>/converse (or /converse-stream), SigV4-signed with the
 * deployment's AWS credentials or a tenant's own key pair. ConverseStream's
 * binary event stream is turned into SSE here, in `send`, so the relay and the
 * codec (src/codecs/bedrock/index.ts) read it like any other stream.
 */
import { GatewayError } from '../core/errors';
import type { Bindings } from '../env';
import type { HttpFetch } from './adapter';
import { eventStreamToSse } from './bedrock-event-stream';
import { type AwsCredentials, createSigner } from './bedrock-signer';
import { fetcherFor } from './fetcher';
import { scrubSecrets } from './scrub';
import type { PrepareInput, ProviderAdapter, ProviderEntry, UpstreamTarget } from './types';

export const BEDROCK_SERVICE = 'bedrock';
export const DEFAULT_REGION = 'us-east-1';

/** Listed in /v1/models beyond the priced catalogue; any Converse model or inference profile id works. */
const MODELS = [
  'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'anthropic.claude-3-5-haiku-20241022-v1:0',
  'meta.llama3-1-8b-instruct-v1:0',
  'meta.llama3-1-70b-instruct-v1:0',
  'amazon.nova-pro-v1:0',
  'amazon.nova-lite-v1:0',
  'mistral.mistral-large-2407-v1:0',
];

/**
 * A key as one string: `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]` (a
 * tenant's own key is stored in this form; none of the parts contains a colon).
 */
export function parseBedrockKey(key: string): AwsCredentials | null {
  const parts = key.split(':');
  if (parts.length < 2 || parts.length > 3) return null;
  const [accessKeyId = '', secretAccessKey = '', sessionToken = ''] = parts.map((p) => p.trim());
  if (!/^\w{1,128}$/.test(accessKeyId) || secretAccessKey === '') return null;
  return { accessKeyId, secretAccessKey, sessionToken: sessionToken || null };
}

export function formatBedrockKey(c: AwsCredentials): string {
  return [c.accessKeyId, c.secretAccessKey, ...(c.sessionToken ? [c.sessionToken] : [])].join(':');
}

export function bedrockEntry(env: Bindings): ProviderEntry {
  const region = env.AWS_REGION?.trim() || DEFAULT_REGION;
  const baseUrl = (env.BEDROCK_BASE_URL?.trim() || `https://bedrock-runtime.${region}.amazonaws.com`).replace(
    /\/+$/,
    '',
  );
  const fetcher = fetcherFor(env, baseUrl);
  const id = env.AWS_ACCESS_KEY_ID?.trim();
  const secret = env.AWS_SECRET_ACCESS_KEY?.trim();
  const token = env.AWS_SESSION_TOKEN?.trim();
  return {
    id: 'bedrock',
    deploymentKey:
      id && secret
        ? formatBedrockKey({ accessKeyId: id, secretAccessKey: secret, sessionToken: token || null })
        : null,
    keyless: false,
    acceptsTenantKeys: true,
    models: MODELS,
    build(key) {
      const credentials = key ? parseBedrockKey(key) : null;
      if (!credentials)
        throw new GatewayError(
          400,
          'The Bedrock key is not of the form ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN].',
          {
            code: 'invalid_provider_key',
          },
        );
      return bedrockAdapter({ credentials, region, baseUrl, fetcher });
    },
  };
}

export interface BedrockOptions {
  readonly credentials: AwsCredentials;
  readonly region: string;
  readonly baseUrl: string;
  readonly fetcher: HttpFetch;
}

export function bedrockAdapter({ credentials, region, baseUrl, fetcher }: BedrockOptions): ProviderAdapter {
  const sign = createSigner(credentials, region, BEDROCK_SERVICE);
  const secrets = [
    credentials.secretAccessKey,
    credentials.accessKeyId,
    ...(credentials.sessionToken ? [credentials.sessionToken] : []),
  ];
  return {
    id: 'bedrock',
    requestIdHeader: 'x-amzn-requestid',
    prepare(input: PrepareInput): UpstreamTarget | null {
      if (input.endpoint === 'embeddings') return null;
      const operation = input.stream ? 'converse-stream' : 'converse';
      const headers = new Headers({
        'content-type': 'application/json',
        accept: input.stream ? 'application/vnd.amazon.eventstream' : 'application/json',
      });
      return {
        endpoint: input.endpoint,
        model: input.model,
        stream: input.stream,
        url: `${baseUrl}/model/${encodeURIComponent(input.model)}/${operation}`,
        headers,
        format: 'bedrock',
      };
    },
    async send(target, body, signal) {
      const headers = await sign({ url: target.url, headers: target.headers, body });
      const response = await fetcher(target.url, { method: 'POST', headers, body, signal });
      if (!target.stream || !response.ok || !response.body) return response;
      const out = new Headers(response.headers);
      out.set('content-type', 'text/event-stream; charset=utf-8');
      out.delete('content-length');
      return new Response(response.body.pipeThrough(eventStreamToSse()), {
        status: response.status,
        headers: out,
      });
    },
    scrub: (message, maxChars) => scrubSecrets(message, secrets, maxChars),
  };
}
