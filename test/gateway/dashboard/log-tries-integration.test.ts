/**
 * The logs pages with named routes, rendered by the Worker from logs the real queue consumer wrote:
 * the route in the list, the attempts table on a request's page, nothing extra for a plain request.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LogTry } from '../../../src/core/log-event';
import { Browser } from '../dashboard-helpers';
import { deliver, LOG_QUEUE, logEvent } from '../log-fixtures';

const TRIES: LogTry[] = [
  { target: 'openai/gpt-4o', status: 503, ttfbMs: 41.4, error: 'server_error' },
  { target: 'openai/gpt-4o', status: 0, ttfbMs: 2000, error: 'upstream_timeout' },
  { target: 'anthropic/claude-sonnet-4', status: 200, ttfbMs: 1310, error: null },
];
const routed = logEvent({ tenantId: 'ten_rt', model: 'smart', route: 'smart', attempts: 3, tries: TRIES });
const failed = logEvent({
  tenantId: 'ten_rt',
  model: 'smart',
  route: 'smart',
  status: 503,
  errorSource: 'provider',
  errorCode: 'server_error',
  tries: TRIES.slice(0, 2),
});
const plain = logEvent({ tenantId: 'ten_rt', model: 'mock/echo' });
const corrupt = logEvent({ tenantId: 'ten_rt', route: 'smart', tries: TRIES });

let b: Browser;
beforeAll(async () => {
  await deliver(LOG_QUEUE, [routed, failed, plain, corrupt]);
  await env.DB.prepare('UPDATE request_logs SET tries = ? WHERE id = ?')
    .bind('[{"target":null}]', corrupt.requestId)
    .run();
  b = new Browser();
  await b.signIn();
});

/** The rows of the attempts table, as text per cell. */
function attemptRows(html: string): string[][] {
  const table = /<table>\s*<caption>Upstream calls[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
    .slice(1)
    .map((m) => [...(m[1] ?? '').matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => text(c[1] ?? '')));
}
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

describe('logs pages with routes', () => {
  it('shows every attempt in order on the request page, saying which one answered', async () => {
    const html = await b.page(`/dashboard/logs/${routed.requestId}`);
    expect(html).toMatch(
      /<dt>Route<\/dt><dd><span class="id[^"]*" title="smart"><code>smart<\/code><\/span><\/dd>/,
    );
    expect(html).toMatch(/<h2 id="tries-h">Attempts<\/h2>/);
    expect(html).toContain('<caption>Upstream calls, in order; call 3 answered</caption>');
    for (const head of ['#', 'Target', 'Status', 'Time to first byte', 'Outcome'])
      expect(html).toMatch(new RegExp(`<th scope="col"[^>]*>\\s*${head}\\s*</th>`));
    expect(attemptRows(html)).toEqual([
      ['1', 'openai/gpt-4o', '503', '41 ms', 'failed server_error'],
      ['2', 'openai/gpt-4o', 'none', '2,000 ms', 'failed upstream_timeout'],
      ['3', 'anthropic/claude-sonnet-4', '200', '1,310 ms', 'answered'],
    ]);
    expect(html).toContain('<th scope="row">1</th>');
  });

  it('says none answered when every attempt failed', async () => {
    const html = await b.page(`/dashboard/logs/${failed.requestId}`);
    expect(html).toContain('<caption>Upstream calls, in order (none answered)</caption>');
    expect(attemptRows(html).map((r) => r[4])).toEqual(['failed server_error', 'failed upstream_timeout']);
  });

  it('shows nothing extra for a request without a route or attempts', async () => {
    const html = await b.page(`/dashboard/logs/${plain.requestId}`);
    expect(html).toContain(plain.requestId);
    expect(html).not.toContain('Attempts</h2>');
    expect(html).not.toContain('<dt>Route</dt>');
  });

  it('renders a request whose stored attempts are unreadable, without the table', async () => {
    const res = await b.get(`/dashboard/logs/${corrupt.requestId}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(
      /<dt>Route<\/dt><dd><span class="id[^"]*" title="smart"><code>smart<\/code><\/span><\/dd>/,
    );
    expect(html).not.toContain('Attempts</h2>');
  });

  it('marks routed requests in the list with the route and the target that answered, and filters by route', async () => {
    const list = await b.page('/dashboard/logs?tenant_id=ten_rt');
    const row = (id: string) =>
      text(new RegExp(`<tr>(?:(?!<tr>)[\\s\\S])*?${id}[\\s\\S]*?</tr>`).exec(list)?.[0] ?? '');
    expect(row(routed.requestId)).toContain('smart route → anthropic/claude-sonnet-4');
    expect(row(failed.requestId)).toContain('smart route');
    expect(row(failed.requestId)).not.toContain('→');
    expect(row(plain.requestId)).toContain('mock/echo');
    expect(row(plain.requestId)).not.toContain('route');
    expect(list).toContain('<label for="f-route">Route</label>');

    const filtered = await b.page('/dashboard/logs?tenant_id=ten_rt&route=smart');
    expect(filtered).toContain(routed.requestId);
    expect(filtered).not.toContain(plain.requestId);
    expect(filtered).toContain('id="f-route" name="route" value="smart"');
  });
});
