/** GET /admin/logs with named routes: the route filter, route and tries in list and detail, the OpenAPI schemas. */
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../../src/admin/openapi';
import type { LogTry } from '../../../../src/core/log-event';
import { admin } from '../../admin-helpers';
import { clearLogs, deliver, LOG_QUEUE, logEvent } from '../../log-fixtures';

const ANSWERED: LogTry[] = [{ target: 'anthropic/claude-sonnet-4', status: 200, ttfbMs: 310, error: null }];
const smart = logEvent({ model: 'smart', route: 'smart', tries: ANSWERED });
const fast = logEvent({ model: 'fast', route: 'fast', tries: ANSWERED });
const direct = logEvent({ model: 'anthropic/claude-sonnet-4', tries: ANSWERED });
const hit = logEvent({ cache: 'HIT' });

type Entry = { id: string; route: string | null; tries: unknown[] };
const list = async (q: string) => ((await admin('GET', `/logs${q}`)).json as { data: Entry[] }).data;

beforeAll(async () => {
  await clearLogs();
  await deliver(LOG_QUEUE, [smart, fast, direct, hit]);
});

describe('GET /admin/logs?route=', () => {
  it('lists only the requests that called the named route', async () => {
    expect((await list('?route=smart')).map((e) => e.id)).toEqual([smart.requestId]);
    expect((await list('?route=fast&model=fast')).map((e) => e.id)).toEqual([fast.requestId]);
    expect(await list('?route=nowhere')).toEqual([]);
  });

  it('shows route and tries on every entry, null and [] when there were none', async () => {
    const byId = new Map((await list('')).map((e) => [e.id, e]));
    expect(byId.get(smart.requestId)).toMatchObject({
      route: 'smart',
      tries: [{ target: 'anthropic/claude-sonnet-4', status: 200, ttfb_ms: 310, error: null }],
    });
    expect(byId.get(direct.requestId)).toMatchObject({ route: null, tries: [{ status: 200 }] });
    expect(byId.get(hit.requestId)).toMatchObject({ route: null, tries: [] });
    expect((await admin('GET', `/logs/${hit.requestId}`)).json).toMatchObject({ route: null, tries: [] });
  });

  it('refuses a route filter that is not a route name with a 400 naming it', async () => {
    for (const q of ['?route=openai%2Fgpt-4o', '?route=', `?route=${'r'.repeat(65)}`]) {
      const res = await admin('GET', `/logs${q}`);
      expect(res.status, q).toBe(400);
      expect((res.json as { error: { param: string } }).error.param, q).toBe('route');
    }
  });

  it('documents the filter and both fields in the OpenAPI document', () => {
    const doc = openApiDocument() as {
      paths: Record<string, { get: { parameters: { name: string }[] } }>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(doc.paths['/admin/logs']!.get.parameters.map((p) => p.name)).toContain('route');
    expect(Object.keys(doc.components.schemas.LogDetail!.properties)).toEqual(
      expect.arrayContaining(['route', 'tries']),
    );
    expect(JSON.stringify(doc.components.schemas)).toContain('ttfb_ms');
  });
});
