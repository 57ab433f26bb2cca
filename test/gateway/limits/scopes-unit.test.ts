import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../../src/core/errors';
import { KeyRecord } from '../../../src/core/key-record';
import { downgradeOf } from '../../../src/limits/downgrade';
import { endUserOf } from '../../../src/limits/end-user';
import { EMPTY_LEDGER, type ScopeState } from '../../../src/limits/protocol';
import { describeScope, modelMatches, planScopes, tagsOf } from '../../../src/limits/scopes';
import { USER_SHARDS, shardOf } from '../../../src/limits/shards';
import { EMPTY_WINDOW } from '../../../src/limits/window';

const headers = (h: Record<string, string> = {}) => new Headers(h);

describe('the end user of a request', () => {
  it('is read from the header, then user, safety_identifier and metadata.user_id', () => {
    expect(endUserOf(headers({ 'x-edgeway-user': 'h1' }), {})).toEqual({ id: 'h1', param: 'x-edgeway-user' });
    expect(endUserOf(headers(), { user: 'u1' })).toEqual({ id: 'u1', param: 'user' });
    expect(endUserOf(headers(), { safety_identifier: 's1' })).toEqual({
      id: 's1',
      param: 'safety_identifier',
    });
    expect(endUserOf(headers(), { metadata: { user_id: 'm1' } })).toEqual({
      id: 'm1',
      param: 'metadata.user_id',
    });
    expect(endUserOf(headers(), { messages: [] })).toBeNull();
  });

  it('takes the header over a body naming another end user, and the first body field over the later ones', () => {
    expect(
      endUserOf(headers({ 'x-edgeway-user': 'backend' }), { user: 'client', metadata: { user_id: 'x' } }),
    ).toEqual({
      id: 'backend',
      param: 'x-edgeway-user',
    });
    expect(endUserOf(headers(), { user: 'a', safety_identifier: 'b' })).toEqual({ id: 'a', param: 'user' });
  });

  it('refuses an id that is empty, too long, not a string or holds control characters, naming the field', () => {
    const refused = (h: Record<string, string>, body: Record<string, unknown>) => {
      try {
        endUserOf(headers(h), body);
      } catch (err) {
        return err as GatewayError;
      }
      return null;
    };
    expect(refused({ 'x-edgeway-user': '   ' }, {})?.param).toBe('x-edgeway-user');
    expect(refused({}, { user: 'x'.repeat(257) })).toMatchObject({
      status: 400,
      code: 'invalid_end_user',
      param: 'user',
    });
    expect(refused({}, { safety_identifier: 42 })?.param).toBe('safety_identifier');
    expect(refused({}, { metadata: { user_id: 'a\nb' } })?.param).toBe('metadata.user_id');
    expect(refused({}, { user: 'x'.repeat(256) })).toBeNull();
  });
});

describe('scopes', () => {
  const principal = KeyRecord.parse({
    id: 'key_1',
    tenantId: 'ten_1',
    status: 'active',
    models: null,
    expiresAt: null,
    scopes: { model_limits: [{ match: 'openai/*', limits: { rpm: 5 }, budgets: {} }], downgrade: null },
    tenantScopes: {
      end_users: { limits: {}, budgets: { usd: { day: 1 } } },
      model_limits: [{ match: 'fast', limits: {}, budgets: { usd: { month: 10 } } }],
      tag_limits: [{ tag: 'team', limits: {}, budgets: { usd: { month: 500 } } }],
      tag_keys: ['feature'],
      downgrade: null,
    },
  });

  it('match a request by its model, its route name or any target of the route', () => {
    const ids = (models: string[]) =>
      planScopes(principal, { models, endUser: null, tags: null }).object.map((s) => s.id);
    expect(ids(['anthropic/claude-x'])).toEqual([]);
    expect(ids(['openai/gpt-4o'])).toEqual(['key:key_1', 'tenant', 'key:key_1:model:openai/*']);
    expect(ids(['fast', 'anthropic/claude-x', 'openai/gpt-4o-mini'])).toEqual([
      'key:key_1',
      'tenant',
      'key:key_1:model:openai/*',
      'model:fast',
    ]);
    expect(modelMatches('anthropic/claude-opus-*', 'anthropic/claude-opus-4-1')).toBe(true);
    expect(modelMatches('anthropic/claude-opus-*', 'anthropic/claude-sonnet-4')).toBe(false);
  });

  it('put the end user in its shard and tags on the tenant object, read from cf-aig-metadata', () => {
    const tags = tagsOf(principal, { team: 'search', feature: 7, other: 'x' });
    expect(tags).toEqual({ feature: '7', team: 'search' });
    const plan = planScopes(principal, {
      models: ['mock/echo'],
      endUser: { id: 'u_1', param: 'user' },
      tags,
    });
    expect(plan.object.map((s) => s.id)).toEqual(['key:key_1', 'tenant', 'tag:team=search']);
    expect(plan.user).toMatchObject({ id: 'user:u_1', kind: 'user', label: 'u_1', param: 'user' });
  });

  it('read back from their ids', () => {
    expect(describeScope('tenant')).toEqual({ kind: 'tenant', keyId: null, label: null });
    expect(describeScope('key:key_1')).toEqual({ kind: 'key', keyId: 'key_1', label: null });
    expect(describeScope('key:key_1:model:openai/*')).toEqual({
      kind: 'model',
      keyId: 'key_1',
      label: 'openai/*',
    });
    expect(describeScope('user:a:b')).toEqual({ kind: 'user', keyId: null, label: 'a:b' });
    expect(describeScope('tag:team=search')).toEqual({ kind: 'tag', keyId: null, label: 'team=search' });
  });

  it('spread end users evenly over the shards', () => {
    const counts = new Array<number>(USER_SHARDS).fill(0);
    for (let i = 0; i < 32_000; i++) counts[shardOf(`user-${i}`)]! += 1;
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(Math.max(...counts)).toBeLessThan(1200);
  });
});

describe('spend-triggered downgrades', () => {
  const state = (nanosSpent: number): ScopeState => ({
    inflight: 0,
    requests: EMPTY_WINDOW,
    tokens: EMPTY_WINDOW,
    ledger: { day: { ...EMPTY_LEDGER, nanosSpent }, month: EMPTY_LEDGER, total: EMPTY_LEDGER },
  });
  const view = (spent: number) => ({
    scope: 'key' as const,
    settings: { limits: {}, budgets: { usd: { day: 1 } }, downgrade: { at_percent: 90, route: 'cheap' } },
    state: state(spent),
  });

  it('apply exactly at the percent, counting the request', () => {
    const cost = { tokens: 10, nanos: 100_000_000 };
    expect(downgradeOf([view(799_999_999)], cost)).toBeNull();
    expect(downgradeOf([view(800_000_000)], cost)).toMatchObject({
      route: 'cheap',
      kind: 'usd_day',
      atPercent: 90,
    });
  });
});
