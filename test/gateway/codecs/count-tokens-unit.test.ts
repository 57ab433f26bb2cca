/**
 * The upstream codecs' token counting (UpstreamCodec.countTokens): the counting URL beside each
 * provider's chat URL, the counting body built from the canonical request, and the count read back.
 */
import { describe, expect, it } from 'vitest';
import { UPSTREAM_CODECS } from '../../../src/codecs/index';
import type { CountTokensCodec, EncodeContext } from '../../../src/codecs/codec';
import { siblingUrl } from '../../../src/codecs/count-tokens';
import { GatewayError } from '../../../src/core/errors';
import { bedrockAdapter } from '../../../src/providers/bedrock';
import { geminiAdapter } from '../../../src/providers/gemini';
import { tableAdapter } from '../../../src/providers/adapter';
import { mockProviderRow } from '../../../src/providers/table';
import type { PrepareInput } from '../../../src/providers/types';
import { canonicalRequest } from './fixtures/canonical';

const noFetch = () => Promise.reject(new Error('no call in a unit test'));
const chat = (model: string): PrepareInput => ({
  endpoint: 'messages',
  model,
  stream: false,
  passHeaders: [],
});
const context = (model: string): EncodeContext => ({
  model,
  providerId: 'p',
  outputCap: 4096,
  enforceCap: true,
  dropped: [],
});
const counter = (format: 'anthropic' | 'gemini' | 'bedrock'): CountTokensCodec => {
  const codec = UPSTREAM_CODECS[format].countTokens;
  if (!codec) throw new Error(`${format} has no counting codec`);
  return codec;
};
const PARAMETERS = { type: 'object', properties: { city: { type: 'string' } } };
const TOOL = { name: 'get_weather', description: 'Weather', parameters: PARAMETERS };

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  return null;
}

describe('which formats count', () => {
  it('Anthropic, Gemini and Bedrock have a counting API; OpenAI and Workers AI do not', () => {
    expect(UPSTREAM_CODECS.anthropic.countTokens).toBeDefined();
    expect(UPSTREAM_CODECS.gemini.countTokens).toBeDefined();
    expect(UPSTREAM_CODECS.bedrock.countTokens).toBeDefined();
    expect(UPSTREAM_CODECS.openai.countTokens).toBeUndefined();
    expect(UPSTREAM_CODECS['workers-ai'].countTokens).toBeUndefined();
  });
});

describe('siblingUrl', () => {
  it('rewrites the path and keeps the query', () => {
    expect(siblingUrl('https://h/a/b?x=1', (p) => `${p}/c`)).toBe('https://h/a/b/c?x=1');
    expect(siblingUrl('https://h/a/b', (p) => `${p}/c`)).toBe('https://h/a/b/c');
  });
});

describe('Anthropic count_tokens', () => {
  it('is called beside the Messages URL', () => {
    const target = tableAdapter(mockProviderRow('http://mock/v1'), 'k', noFetch).prepare(chat('echo'));
    expect(counter('anthropic').url(target!.url)).toBe('http://mock/v1/messages/count_tokens');
  });

  it('sends a Messages body without the fields count_tokens refuses', () => {
    const body = counter('anthropic').encodeRequest(
      canonicalRequest({
        system: [{ type: 'text', text: 'Be brief.' }],
        temperature: 0.5,
        stop: ['x'],
        tools: [TOOL],
      }),
      context('claude-x'),
    );
    expect(Object.keys(body).sort()).toEqual(['messages', 'model', 'system', 'tools']);
    expect(body.model).toBe('claude-x');
  });

  it('reads input_tokens, and calls any other answer the provider’s fault', () => {
    expect(counter('anthropic').decodeResponse({ input_tokens: 17 })).toBe(17);
    for (const bad of [{}, { input_tokens: -1 }, { input_tokens: 1.5 }, { input_tokens: '3' }, null]) {
      const err = refusal(() => counter('anthropic').decodeResponse(bad));
      expect(err).toBeInstanceOf(GatewayError);
      expect(err).toMatchObject({ status: 502, source: 'provider' });
    }
  });
});

describe('Gemini countTokens', () => {
  it('is called beside generateContent, for the same model', () => {
    const target = geminiAdapter('https://g.test', 'k', noFetch).prepare(chat('gemini-2.5-flash'));
    expect(counter('gemini').url(target!.url)).toBe(
      'https://g.test/v1beta/models/gemini-2.5-flash:countTokens',
    );
  });

  it('wraps the whole generate request, system and tools included, without an output cap', () => {
    const body = counter('gemini').encodeRequest(
      canonicalRequest({ system: [{ type: 'text', text: 'Be brief.' }], tools: [TOOL] }),
      context('gemini-2.5-flash'),
    );
    expect(body).toEqual({
      generateContentRequest: {
        model: 'models/gemini-2.5-flash',
        contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        tools: [
          {
            functionDeclarations: [
              { name: 'get_weather', description: 'Weather', parametersJsonSchema: PARAMETERS },
            ],
          },
        ],
      },
    });
  });

  it('reads totalTokens', () => {
    expect(counter('gemini').decodeResponse({ totalTokens: 31, promptTokensDetails: [] })).toBe(31);
    expect(refusal(() => counter('gemini').decodeResponse({ input_tokens: 3 }))).toMatchObject({
      status: 502,
    });
  });
});

describe('Bedrock CountTokens', () => {
  const adapter = bedrockAdapter({
    credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: null },
    region: 'us-east-1',
    baseUrl: 'https://bedrock.test',
    fetcher: noFetch,
  });

  it('is called beside converse, the model id kept encoded', () => {
    const target = adapter.prepare(chat('anthropic.claude-3-5-haiku-20241022-v1:0'));
    expect(counter('bedrock').url(target!.url)).toBe(
      'https://bedrock.test/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/count-tokens',
    );
  });

  it('sends {input: {converse}} with only what CountTokens reads (no inferenceConfig)', () => {
    const body = counter('bedrock').encodeRequest(
      canonicalRequest({
        system: [{ type: 'text', text: 'Be brief.' }],
        temperature: 0.3,
        maxTokens: 100,
        tools: [TOOL],
      }),
      context('amazon.nova-lite-v1:0'),
    );
    const converse = (body.input as { converse: Record<string, unknown> }).converse;
    expect(Object.keys(body)).toEqual(['input']);
    expect(Object.keys(converse).sort()).toEqual(['messages', 'system', 'toolConfig']);
    expect(converse.system).toEqual([{ text: 'Be brief.' }]);
    expect(converse.messages).toEqual([{ role: 'user', content: [{ text: 'Hello' }] }]);
  });

  it('reads inputTokens', () => {
    expect(counter('bedrock').decodeResponse({ inputTokens: 12 })).toBe(12);
    expect(refusal(() => counter('bedrock').decodeResponse({ totalTokens: 3 }))).toMatchObject({
      status: 502,
    });
  });
});
