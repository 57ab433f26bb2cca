/** Which client format a request's errors are written in: by its path, and on the models paths by its headers. */
import { describe, expect, it } from 'vitest';
import { formatForRequest, isModelsPath } from '../../../src/core/endpoints';

const anthropic = new Headers({ 'anthropic-version': '2023-06-01' });
const plain = new Headers();

describe('formatForRequest', () => {
  it("answers the models paths in Anthropic's format only for requests carrying anthropic-version", () => {
    for (const path of ['/v1/models', '/v1/models/openai/gpt-4o']) {
      expect(formatForRequest(path, anthropic)).toBe('anthropic');
      expect(formatForRequest(path, plain)).toBe('openai');
    }
  });

  it("keeps every other path's own format, whatever the headers", () => {
    expect(formatForRequest('/v1/messages/count_tokens', plain)).toBe('anthropic');
    expect(formatForRequest('/v1/chat/completions', anthropic)).toBe('openai');
    expect(formatForRequest('/v1/models', null)).toBe('openai');
  });
});

describe('isModelsPath', () => {
  it('is the list and any non-empty id under it', () => {
    expect(isModelsPath('/v1/models')).toBe(true);
    expect(isModelsPath('/v1/models/mock/echo')).toBe(true);
    expect(isModelsPath('/v1/models/')).toBe(false);
    expect(isModelsPath('/v1/modelsx')).toBe(false);
  });
});
