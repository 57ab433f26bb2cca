/** MCP forms ⇄ admin API bodies (pure): the allow-list's three states, call limits, a server's write-only secret. */
import { describe, expect, it } from 'vitest';
import {
  mcpBody,
  mcpFields,
  mcpFormValues,
  serverBody,
  serverFields,
  serverFormValues,
  toolPatterns,
} from '../../../src/dashboard/mcp-form';

describe('MCP tools settings', () => {
  it('tells unset (null), no tools ([]) and a list apart', () => {
    expect(mcpBody({ 'mcp.tools': '  \n ' }, 'key')).toEqual({ tools: null, calls: null });
    expect(mcpBody({ 'mcp.tools': 'github__*', 'mcp.no_tools': 'on' }, 'key').tools).toEqual([]);
    expect(toolPatterns('github__*\r\n*__read_*, search__query')).toEqual([
      'github__*',
      '*__read_*',
      'search__query',
    ]);
  });

  it('sends limits as numbers, blank ones left out, and end-user limits on a tenant only', () => {
    const values = {
      'mcp.calls.per_minute': '30',
      'mcp.calls.per_day': '',
      'mcp.end_user_calls.per_day': 'lots',
    };
    expect(mcpBody(values, 'key')).toEqual({ tools: null, calls: { per_minute: 30 } });
    expect(mcpBody(values, 'tenant')).toEqual({
      tools: null,
      calls: { per_minute: 30 },
      end_user_calls: { per_day: 'lots' },
    });
  });

  it('reads stored settings back into the same fields, round trip', () => {
    const stored = {
      tools: ['a__*'],
      calls: { per_day: 9 },
      end_user_calls: { per_minute: 2 },
    };
    const values = mcpFormValues(stored);
    expect(values).toEqual({
      'mcp.tools': 'a__*',
      'mcp.calls.per_day': '9',
      'mcp.end_user_calls.per_minute': '2',
    });
    expect(mcpBody(values, 'tenant')).toEqual(stored);
    expect(mcpFormValues({ tools: [], calls: null })).toEqual({ 'mcp.no_tools': 'on' });
    expect(mcpFormValues(undefined)).toEqual({});
    expect(mcpFields({ name: 'x', 'mcp.tools': 'a__b', _csrf: 't' })).toEqual({ 'mcp.tools': 'a__b' });
  });
});

describe('MCP server forms', () => {
  const form = {
    namespace: ' github ',
    url: ' https://mcp.example.com/mcp ',
    transport: 'sse',
    description: '',
    'auth.type': 'header',
    'auth.header': 'X-Api-Key',
    'auth.secret': 's3cret-value',
    timeout_ms: '5000',
    enabled: 'on',
    _csrf: 'token',
  };

  it('builds the body from the form, an unticked box disabling it', () => {
    expect(serverBody(form)).toEqual({
      namespace: 'github',
      url: 'https://mcp.example.com/mcp',
      transport: 'sse',
      description: '',
      auth: { type: 'header', header: 'X-Api-Key', secret: 's3cret-value' },
      timeout_ms: 5000,
      enabled: true,
    });
    const { enabled: _enabled, ...off } = form;
    expect(serverBody(off).enabled).toBe(false);
  });

  it('leaves a blank secret, header and timeout out (kept, none, the default)', () => {
    const body = serverBody({
      namespace: 'x',
      url: 'https://x.example',
      'auth.type': 'bearer',
      'auth.secret': '',
    });
    expect(body).toEqual({
      namespace: 'x',
      url: 'https://x.example',
      transport: 'streamable-http',
      description: '',
      auth: { type: 'bearer' },
      enabled: false,
    });
  });

  it('never keeps the secret for a re-rendered form, and a stored server fills the form without one', () => {
    const kept = serverFields(form);
    expect(kept).not.toHaveProperty('auth.secret');
    expect(kept).not.toHaveProperty('_csrf');
    expect(kept.url).toBe(form.url);
    const values = serverFormValues({
      namespace: 'github',
      url: 'https://mcp.example.com/mcp',
      transport: 'streamable-http',
      description: '',
      auth: { type: 'bearer', header: null },
      timeout_ms: 30000,
      enabled: false,
    });
    expect(values).toEqual({
      namespace: 'github',
      url: 'https://mcp.example.com/mcp',
      transport: 'streamable-http',
      description: '',
      'auth.type': 'bearer',
      'auth.header': '',
      timeout_ms: '30000',
    });
  });
});
