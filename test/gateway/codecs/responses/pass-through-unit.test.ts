import { describe, expect, it } from 'vitest';
import type { ProxyRequest } from '../../../../src/core/request';
import { responsesPassThrough } from '../../../../src/codecs/responses/pass-through';

/** A validated Responses request as the pipeline hands it over (only its body is read). */
const request = (extra: Record<string, unknown> = {}): ProxyRequest =>
  ({
    endpoint: 'responses',
    body: { model: 'openai/gpt-5', input: 'hi', ...extra },
    model: 'openai/gpt-5',
    stream: extra.stream === true,
    clientWantsUsage: false,
    maxOutputTokens: null,
    maxOutputTokensParam: null,
    choices: 1,
  }) as unknown as ProxyRequest;
const opts = { upstreamModel: 'gpt-5', providerId: 'openai' };
const sent = (extra: Record<string, unknown> = {}, options: Record<string, unknown> = {}) =>
  JSON.parse(responsesPassThrough(request(extra), { ...opts, ...options }));

describe('responsesPassThrough', () => {
  it("names the provider's model, keeps every other field, and never lets the provider store", () => {
    expect(sent({ store: false, temperature: 0.2, metadata: { a: 'b' } })).toEqual({
      model: 'gpt-5',
      input: 'hi',
      store: false,
      temperature: 0.2,
      metadata: { a: 'b' },
    });
  });

  it('asks for the encrypted reasoning when the gateway will keep the answer, keeping what the client included', () => {
    expect(sent().include).toEqual(['reasoning.encrypted_content']);
    expect(sent().store).toBe(false);
    expect(sent({ store: true, include: ['message.output_text.logprobs'] }).include).toEqual([
      'message.output_text.logprobs',
      'reasoning.encrypted_content',
    ]);
    expect(sent({ include: ['reasoning.encrypted_content'] }).include).toEqual([
      'reasoning.encrypted_content',
    ]);
    expect(sent({ store: false }).include).toBeUndefined();
  });

  it('sends the reserved output cap when the client set none, at least 16', () => {
    expect(sent({ store: false }, { outputCap: 256 }).max_output_tokens).toBe(256);
    expect(sent({ store: false }, { outputCap: 4 }).max_output_tokens).toBe(16);
    expect(sent({ store: false, max_output_tokens: 100 }, { outputCap: 256 }).max_output_tokens).toBe(100);
    expect(sent({ store: false }).max_output_tokens).toBeUndefined();
  });

  it('never sends a previous_response_id: it names a response the gateway keeps', () => {
    expect(sent({ previous_response_id: 'resp_abc' })).not.toHaveProperty('previous_response_id');
  });
});
