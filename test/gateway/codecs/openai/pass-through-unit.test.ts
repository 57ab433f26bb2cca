import { describe, expect, it } from 'vitest';
import { parseProxyRequest } from '../../../../src/core/request';
import { openAiPassThrough as upstreamBody } from '../../../../src/codecs/openai/pass-through';

const chat = (extra: Record<string, unknown> = {}) =>
  parseProxyRequest('chat', {
    model: 'openai/gpt-4o',
    messages: [{ role: 'user', content: 'hi' }],
    ...extra,
  });
const opts = { upstreamModel: 'gpt-4o', format: 'openai' as const, providerId: 'openai' };

describe('upstreamBody', () => {
  it('names the provider model and keeps every other field', () => {
    expect(JSON.parse(upstreamBody(chat({ seed: 7 }), opts))).toEqual({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      seed: 7,
    });
  });

  it("asks for usage on OpenAI streams, keeping the client's other stream options", () => {
    const body = JSON.parse(
      upstreamBody(chat({ stream: true, stream_options: { include_obfuscation: false } }), opts),
    );
    expect(body.stream_options).toEqual({ include_obfuscation: false, include_usage: true });
  });

  it('sends the reserved output cap when the client set none, in the field the provider expects', () => {
    expect(JSON.parse(upstreamBody(chat(), { ...opts, outputCap: 256 })).max_completion_tokens).toBe(256);
    expect(JSON.parse(upstreamBody(chat(), { ...opts, providerId: 'groq', outputCap: 256 })).max_tokens).toBe(
      256,
    );
    expect(JSON.parse(upstreamBody(chat({ max_tokens: 10 }), { ...opts, outputCap: 256 })).max_tokens).toBe(
      10,
    );
  });
});
