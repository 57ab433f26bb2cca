/** The count_tokens body: a Messages body without max_tokens, read as a `messages` request asking for no output. */
import { describe, expect, it } from 'vitest';
import { parseCountTokensRequest } from '../../../src/core/count-tokens-request';
import { GatewayError } from '../../../src/core/errors';

const HELLO = [{ role: 'user', content: 'Hi' }];

function refusal(raw: unknown): GatewayError {
  try {
    parseCountTokensRequest(raw);
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('accepted');
}

describe('parseCountTokensRequest', () => {
  it('needs no max_tokens, and asks for no stream and no output', () => {
    const request = parseCountTokensRequest({ model: 'mock/echo', messages: HELLO });
    expect(request).toMatchObject({
      endpoint: 'messages',
      model: 'mock/echo',
      stream: false,
      maxOutputTokens: null,
      maxOutputTokensParam: null,
      choices: 1,
    });
  });

  it('keeps every other field as sent, for the provider', () => {
    const body = {
      model: 'anthropic/claude-sonnet-4-5',
      messages: HELLO,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      system: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral' } }],
    };
    expect(parseCountTokensRequest(body).body).toEqual(body);
  });

  it('refuses what /v1/messages refuses: no model, no messages, a bad system, a non-object body', () => {
    expect(refusal({ messages: HELLO })).toMatchObject({ status: 400, param: 'model' });
    expect(refusal({ model: 'mock/echo', messages: [] })).toMatchObject({ status: 400, param: 'messages' });
    expect(refusal({ model: 'mock/echo', messages: HELLO, system: 3 })).toMatchObject({ param: 'system' });
    expect(refusal([1])).toMatchObject({ status: 400, code: 'invalid_type' });
  });
});
