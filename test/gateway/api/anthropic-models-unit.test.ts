/** Anthropic's shapes of /v1/models: the model object and the pages cut by limit, after_id and before_id. */
import { describe, expect, it } from 'vitest';
import { anthropicModel, anthropicModelPage } from '../../../src/api/anthropic-models';
import type { ModelEntry } from '../../../src/api/models';
import { GatewayError } from '../../../src/core/errors';

const entries: ModelEntry[] = ['a/1', 'a/2', 'b/1', 'b/2', 'c/1'].map((id) => ({
  id,
  created: 1_700_000_000,
  ownedBy: id.slice(0, 1),
}));
const page = (query: string) => anthropicModelPage(entries, new URLSearchParams(query));
const ids = (query: string) => page(query).data.map((m) => m.id);

describe('anthropicModel', () => {
  it('is a typed model with the id as its display name and an RFC 3339 date', () => {
    expect(anthropicModel(entries[0]!)).toEqual({
      type: 'model',
      id: 'a/1',
      display_name: 'a/1',
      created_at: '2023-11-14T22:13:20Z',
    });
  });
});

describe('anthropicModelPage', () => {
  it('gives the first 20 by default, with the ids that bound the page', () => {
    expect(page('')).toMatchObject({ has_more: false, first_id: 'a/1', last_id: 'c/1' });
    expect(ids('')).toHaveLength(5);
  });

  it('cuts at limit and says there is more', () => {
    expect(page('limit=2')).toMatchObject({ has_more: true, first_id: 'a/1', last_id: 'a/2' });
  });

  it('pages forward from after_id until the end', () => {
    expect(ids('limit=2&after_id=a/2')).toEqual(['b/1', 'b/2']);
    expect(page('limit=2&after_id=b/2')).toMatchObject({ has_more: false, first_id: 'c/1', last_id: 'c/1' });
  });

  it('pages back from before_id: the entries just before it', () => {
    expect(ids('limit=2&before_id=c/1')).toEqual(['b/1', 'b/2']);
    expect(page('limit=2&before_id=c/1').has_more).toBe(true);
    expect(page('limit=2&before_id=a/2')).toMatchObject({ has_more: false, first_id: 'a/1' });
  });

  it('places a cursor that is not listed where it would sit', () => {
    expect(ids('after_id=a/9')).toEqual(['b/1', 'b/2', 'c/1']);
  });

  it('answers an empty page with null bounds', () => {
    expect(page('after_id=z')).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
  });

  it.each(['0', '1001', '2.5', 'ten', '-1', ''])('refuses limit=%s with a 400 naming it', (limit) => {
    let thrown: unknown;
    try {
      page(`limit=${limit}`);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({ status: 400, param: 'limit' });
  });

  it('accepts the bounds of limit', () => {
    expect(ids('limit=1')).toEqual(['a/1']);
    expect(ids('limit=1000')).toHaveLength(5);
  });

  it('refuses after_id and before_id together', () => {
    expect(() => page('after_id=a/1&before_id=c/1')).toThrow(/at most one/);
  });
});
