import { describe, expect, it } from 'vitest';
import { responsesUsage } from '../../../../src/codecs/responses/usage';
import { COMPLETED } from './relay-fixture';

const GATEWAY = {
  inputTokens: 312,
  outputTokens: 94,
  cachedTokens: 128,
  cacheWriteTokens: 0,
  cacheWrite1hTokens: 0,
  reasoningTokens: 64,
};

describe('responsesUsage', () => {
  it("reads a JSON response's usage: cached tokens part of the input, reasoning part of the output", () => {
    expect(responsesUsage(COMPLETED)).toEqual(GATEWAY);
  });

  it("reads the usage of a terminal stream event's response", () => {
    expect(responsesUsage({ type: 'response.completed', sequence_number: 22, response: COMPLETED })).toEqual(
      GATEWAY,
    );
  });

  it('reads a usage without details as plain counts', () => {
    expect(responsesUsage({ usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 } })).toEqual({
      ...GATEWAY,
      inputTokens: 5,
      outputTokens: 2,
      cachedTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('is null for events and bodies that carry none', () => {
    expect(responsesUsage({ type: 'response.created', response: { ...COMPLETED, usage: null } })).toBeNull();
    expect(responsesUsage({ type: 'response.output_text.delta', delta: 'Hi' })).toBeNull();
    expect(responsesUsage(null)).toBeNull();
    expect(responsesUsage('text')).toBeNull();
  });
});
