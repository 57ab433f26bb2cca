/** Allow-lists over namespaced tool names, and the names themselves (pure). */
import { describe, expect, it } from 'vitest';
import { gatewayName, gatewayUri, splitName, splitUri } from '../../../src/mcp/names';
import { noToolsReason, serverReachable, toolAllowed } from '../../../src/mcp/permissions';
import { principalWith } from '../limits-helpers';

const principal = (tenant: string[] | null, key: string[] | null) =>
  principalWith({
    tenantScopes: {
      end_users: null,
      model_limits: [],
      tag_limits: [],
      tag_keys: [],
      downgrade: null,
      mcp: { tools: tenant, calls: null, end_user_calls: null },
    },
    scopes: { model_limits: [], downgrade: null, mcp: { tools: key, calls: null } },
  });

describe('tool names', () => {
  it('joins and splits a namespace and a name at the first separator', () => {
    expect(gatewayName('github', 'create_issue')).toBe('github__create_issue');
    expect(splitName('github__create__issue')).toEqual({ namespace: 'github', name: 'create__issue' });
    expect(splitName('plain')).toBeNull();
    expect(splitName('__x')).toBeNull();
    expect(splitName('ns__')).toBeNull();
    expect(gatewayUri('docs', 'doc://readme')).toBe('docs+doc://readme');
    expect(splitUri('docs+doc://a+b')).toEqual({ namespace: 'docs', name: 'doc://a+b' });
    expect(splitUri('doc://readme')).toBeNull();
  });
});

describe('allow-lists', () => {
  it('allows every tool when neither list is set', () => {
    const p = principal(null, null);
    expect(toolAllowed(p, 'github', 'create_issue')).toBe(true);
    expect(serverReachable(p, 'github')).toBe(true);
    expect(noToolsReason(p)).toBeNull();
  });

  it('needs both lists to match: the key narrows its tenant', () => {
    const p = principal(['github__*', 'search__query'], ['github__create_*', 'search__*']);
    expect(toolAllowed(p, 'github', 'create_issue')).toBe(true);
    expect(toolAllowed(p, 'github', 'delete_repo')).toBe(false);
    expect(toolAllowed(p, 'search', 'query')).toBe(true);
    expect(toolAllowed(p, 'search', 'index')).toBe(false);
    expect(serverReachable(p, 'search')).toBe(true);
    expect(serverReachable(p, 'slack')).toBe(false);
  });

  it('matches globs on both sides of the separator, and treats regex characters literally', () => {
    const p = principal(['*__read_*', 'docs__a.b'], null);
    expect(toolAllowed(p, 'docs', 'read_doc')).toBe(true);
    expect(toolAllowed(p, 'docs', 'write_doc')).toBe(false);
    expect(toolAllowed(p, 'docs', 'a.b')).toBe(true);
    expect(toolAllowed(p, 'docs', 'aXb')).toBe(false);
    expect(toolAllowed(principal(['*'], null), 'any', 'thing')).toBe(true);
  });

  it('says why a key may use no tool: an empty list on either side', () => {
    expect(noToolsReason(principal([], null))).toContain("tenant's");
    expect(noToolsReason(principal(null, []))).toContain("key's");
    expect(toolAllowed(principal(null, []), 'docs', 'echo')).toBe(false);
  });
});
