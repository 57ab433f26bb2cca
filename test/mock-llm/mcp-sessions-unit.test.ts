import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { describe, expect, it } from 'vitest';
import { SessionStore } from '../../workers/mock-llm/src/mcp/sessions';

function transport(closed: string[], id: string): WebStandardStreamableHTTPServerTransport {
  const t = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id });
  t.onclose = () => closed.push(id);
  return t;
}

describe('SessionStore', () => {
  it('evicts and closes the oldest session beyond its capacity', async () => {
    const closed: string[] = [];
    const store = new SessionStore(2);
    for (const id of ['a', 'b', 'c']) store.add(id, transport(closed, id));
    await Promise.resolve();
    expect(store.size).toBe(2);
    expect(store.get('a')).toBeUndefined();
    expect(store.get('b')).toBeDefined();
    expect(store.get('c')).toBeDefined();
    expect(closed).toEqual(['a']);
  });

  it('forgets a deleted session without closing the others', () => {
    const closed: string[] = [];
    const store = new SessionStore(2);
    store.add('a', transport(closed, 'a'));
    store.add('b', transport(closed, 'b'));
    store.delete('a');
    store.add('c', transport(closed, 'c'));
    expect(store.size).toBe(2);
    expect(closed).toEqual([]);
  });
});
