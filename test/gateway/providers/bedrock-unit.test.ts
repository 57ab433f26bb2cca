import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors';
import type { Bindings } from '../../../src/env';
import { bedrockAdapter, bedrockEntry, parseBedrockKey } from '../../../src/providers/bedrock';
import { bindings } from '../log-fixtures';

const CREDENTIALS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: null,
};

function env(overrides: Partial<Bindings>): Bindings {
  return {
    ...bindings,
    AWS_ACCESS_KEY_ID: undefined,
    AWS_SECRET_ACCESS_KEY: undefined,
    AWS_SESSION_TOKEN: undefined,
    AWS_REGION: undefined,
    BEDROCK_BASE_URL: undefined,
    ...overrides,
  };
}

describe('Bedrock provider entry', () => {
  it('is configured only when both keys are set, with the key pair as its deployment key', () => {
    expect(bedrockEntry(env({ AWS_ACCESS_KEY_ID: 'AKID' })).deploymentKey).toBeNull();
    const entry = bedrockEntry(
      env({ AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'tok' }),
    );
    expect(entry).toMatchObject({
      id: 'bedrock',
      deploymentKey: 'AKID:secret:tok',
      keyless: false,
      acceptsTenantKeys: true,
    });
    expect(entry.models).toContain('meta.llama3-1-8b-instruct-v1:0');
  });

  it('calls the regional endpoint, or BEDROCK_BASE_URL, with the model id URL-encoded', () => {
    const input = {
      endpoint: 'chat',
      model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
      stream: false,
      passHeaders: [],
    } as const;
    const regional = bedrockEntry(env({ AWS_REGION: 'eu-west-3' }))
      .build('AKID:secret')
      .prepare(input);
    expect(regional?.url).toBe(
      'https://bedrock-runtime.eu-west-3.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse',
    );
    const proxied = bedrockEntry(env({ BEDROCK_BASE_URL: 'https://proxy.example/' })).build('AKID:secret');
    const stream = proxied.prepare({ ...input, endpoint: 'messages', stream: true });
    expect(stream).toMatchObject({
      url: 'https://proxy.example/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream',
      format: 'bedrock',
      stream: true,
    });
    expect(stream?.headers.get('accept')).toBe('application/vnd.amazon.eventstream');
    expect(proxied.prepare({ ...input, endpoint: 'embeddings' })).toBeNull();
    expect(proxied.requestIdHeader).toBe('x-amzn-requestid');
  });

  it('reads a key as ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN] and refuses anything else', () => {
    expect(parseBedrockKey('AKID:sec/ret+1')).toEqual({
      accessKeyId: 'AKID',
      secretAccessKey: 'sec/ret+1',
      sessionToken: null,
    });
    expect(parseBedrockKey('AKID:secret:token')?.sessionToken).toBe('token');
    for (const bad of ['', 'AKID', 'AKID:', 'a b:secret', 'a:b:c:d']) expect(parseBedrockKey(bad)).toBeNull();
    expect(() => bedrockEntry(env({})).build('sk-not-aws')).toThrow(GatewayError);
  });

  it('scrubs the secret key, the access key id and the session token from provider messages', () => {
    const adapter = bedrockAdapter({
      credentials: { ...CREDENTIALS, sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE' },
      region: 'us-east-1',
      baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
      fetcher: () => Promise.reject(new Error('unused')),
    });
    const text = adapter.scrub(
      `key ${CREDENTIALS.accessKeyId} secret ${CREDENTIALS.secretAccessKey} token IQoJb3JpZ2luX2VjEXAMPLE`,
    );
    expect(text).not.toContain(CREDENTIALS.accessKeyId);
    expect(text).not.toContain(CREDENTIALS.secretAccessKey);
    expect(text).not.toContain('IQoJb3JpZ2luX2VjEXAMPLE');
  });

  it('signs what it sends and relays an error answer untouched', async () => {
    let seen: Headers | null = null;
    const adapter = bedrockAdapter({
      credentials: CREDENTIALS,
      region: 'us-east-1',
      baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
      fetcher: async (_url, init) => {
        seen = new Headers(init.headers);
        return new Response('{"message":"nope"}', {
          status: 400,
          headers: { 'x-amzn-errortype': 'ValidationException' },
        });
      },
    });
    const target = adapter.prepare({ endpoint: 'chat', model: 'm', stream: true, passHeaders: [] });
    const res = await adapter.send(target!, '{}', new AbortController().signal);
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('{"message":"nope"}');
    const headers = seen as Headers | null;
    expect(headers?.get('authorization')).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
  });
});
