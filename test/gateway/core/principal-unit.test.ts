/** The model allow-list every stage and listing shares: exact ids and `provider/*` patterns. */
import { describe, expect, it } from 'vitest';
import { modelAllowed } from '../../../src/core/principal';

describe('modelAllowed', () => {
  it('allows every model when the key has no list', () => {
    expect(modelAllowed(null, 'openai/gpt-4o')).toBe(true);
    expect(modelAllowed(null, 'anything-at-all')).toBe(true);
  });

  it('allows nothing when the list is empty', () => {
    expect(modelAllowed([], 'openai/gpt-4o')).toBe(false);
  });

  it('allows an exact id only as written, not a longer id it is a prefix of', () => {
    const list = ['openai/gpt-4o', 'mock/echo'];
    expect(modelAllowed(list, 'openai/gpt-4o')).toBe(true);
    expect(modelAllowed(list, 'mock/echo')).toBe(true);
    expect(modelAllowed(list, 'openai/gpt-4o-mini')).toBe(false);
    expect(modelAllowed(list, 'OpenAI/gpt-4o')).toBe(false);
    expect(modelAllowed(list, 'gpt-4o')).toBe(false);
  });

  it('allows every model of a provider for `provider/*`, including ids with more slashes', () => {
    const list = ['workers-ai/*'];
    expect(modelAllowed(list, 'workers-ai/@cf/meta/llama-3.1-8b-instruct')).toBe(true);
    expect(modelAllowed(['openai/*'], 'openai/gpt-4o-mini')).toBe(true);
  });

  it('does not let `provider/*` match another provider whose id shares a prefix', () => {
    expect(modelAllowed(['open/*'], 'openai/gpt-4o')).toBe(false);
    expect(modelAllowed(['mock/*'], 'mockery/echo')).toBe(false);
    expect(modelAllowed(['openai/*'], 'openai')).toBe(false);
  });

  it('treats a `*` anywhere but after `provider/` as a literal character', () => {
    expect(modelAllowed(['*'], 'openai/gpt-4o')).toBe(false);
    expect(modelAllowed(['openai/gpt-*'], 'openai/gpt-4o')).toBe(false);
  });

  it('allows a model matched by any one entry of a mixed list', () => {
    const list = ['anthropic/*', 'openai/gpt-4o-mini'];
    expect(modelAllowed(list, 'anthropic/claude-sonnet-4')).toBe(true);
    expect(modelAllowed(list, 'openai/gpt-4o-mini')).toBe(true);
    expect(modelAllowed(list, 'openai/gpt-4o')).toBe(false);
  });
});
