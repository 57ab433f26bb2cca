/** The McpSession object: one session's record, owned by its key, forgotten on close and after a day idle. */
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MCP_SESSION_IDLE_MS, type McpSessionState } from '../../../src/core/mcp-session';

const STATE: McpSessionState = {
  tenantId: 'ten_a',
  keyId: 'key_a',
  protocolVersion: '2025-11-25',
  clientName: 'test',
  clientVersion: '1',
  createdAt: 1,
  upstreams: {},
};

const session = (name: string) => env.MCP_SESSIONS.get(env.MCP_SESSIONS.idFromName(name));

describe('McpSession', () => {
  it('answers only the key that opened it, and keeps its upstream sessions', async () => {
    const stub = session(`s-${crypto.randomUUID()}`);
    await stub.open(STATE);
    expect(await stub.read('key_b')).toBeNull();
    await stub.setUpstream('key_b', 'mcp_x', { sessionId: 'u1', protocolVersion: '2025-06-18' });
    await stub.setUpstream('key_a', 'mcp_x', { sessionId: 'u2', protocolVersion: '2025-06-18' });
    expect((await stub.read('key_a'))?.upstreams).toEqual({
      mcp_x: { sessionId: 'u2', protocolVersion: '2025-06-18' },
    });
    expect(await stub.close('key_b')).toBe(false);
    expect(await stub.close('key_a')).toBe(true);
    expect(await stub.read('key_a')).toBeNull();
  });

  it('is deleted by its alarm once idle a day, and kept while in use', async () => {
    const stub = session(`s-${crypto.randomUUID()}`);
    let now = 1_000_000;
    await runInDurableObject(stub, (object) => {
      object.now = () => now;
    });
    await stub.open(STATE);
    now += MCP_SESSION_IDLE_MS / 2;
    expect(await stub.read('key_a')).not.toBeNull();
    now += MCP_SESSION_IDLE_MS / 2 + 1;
    await runDurableObjectAlarm(stub);
    expect(await stub.read('key_a')).not.toBeNull();
    now += MCP_SESSION_IDLE_MS + 1;
    await runDurableObjectAlarm(stub);
    expect(await stub.read('key_a')).toBeNull();
  });
});
