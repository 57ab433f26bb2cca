/**
 * Guardrails in the dashboard, through the Worker: the tenant's and the key's
 * policy forms store what they say (read back through the admin API), a
 * refused deny-list pattern is shown in words and stores nothing, a key's page
 * shows its tenant's policy and the effective result, the logs pages show a
 * request's verdicts (kinds and counts), and the usage page the per-day counts.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LogGuardrail } from '../../../src/core/log-event';
import { admin, asKey, asTenant, createKey, createTenant } from '../admin-helpers';
import { Browser, location } from '../dashboard-helpers';
import { deliver, LOG_QUEUE, logEvent } from '../log-fixtures';

let b: Browser;
beforeAll(async () => {
  b = new Browser();
  await b.signIn();
});

/** The value of the selected option of the select named `name` ('' when there is none). */
function selected(html: string, name: string): string {
  const select = new RegExp(
    `<select[^>]*name="${name.replaceAll('.', '\\.')}"[^>]*>([\\s\\S]*?)</select>`,
  ).exec(html);
  return /<option value="([^"]*)" selected=""/.exec(select?.[1] ?? '')?.[1] ?? '';
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

/** The body rows of the table whose caption starts with `caption`, as text per cell. */
function tableRows(html: string, caption: string): string[][] {
  const table = new RegExp(`<table>\\s*<caption>${caption}[\\s\\S]*?</table>`).exec(html)?.[0] ?? '';
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
    .slice(1)
    .map((m) => [...(m[1] ?? '').matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => text(c[1] ?? '')));
}

/** Every guardrail off: what a form sends when the admin changed nothing. */
const ALL_OFF: Record<string, string> = Object.fromEntries(
  ['injection', 'pii', 'secrets', 'denylist', 'llama_guard'].flatMap((g) => [
    [`guardrails.${g}.request`, 'off'],
    ...(g === 'injection' || g === 'llama_guard' ? [] : [[`guardrails.${g}.response`, 'off']]),
  ]),
);

describe("a tenant's guardrails form", () => {
  it('offers only the actions that apply to each guardrail and side', async () => {
    const t = await createTenant('Offers');
    const html = await b.page(`/dashboard/tenants/${t.id}`);
    expect(html).toContain('<h2 id="guardrails-h">Guardrails</h2>');
    const options = (name: string) => {
      const select =
        new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? '';
      return [...select.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
    };
    expect(options('guardrails\\.pii\\.request')).toEqual(['off', 'log', 'flag', 'redact', 'block']);
    expect(options('guardrails\\.injection\\.request')).toEqual(['off', 'log', 'flag', 'block']);
    expect(options('guardrails\\.injection\\.response')).toEqual([]);
    expect(options('guardrails\\.llama_guard\\.response')).toEqual([]);
    // Tool results: their own select, quarantine only there; '' follows the request action.
    expect(options('guardrails\\.injection\\.tool_results')).toEqual([
      '',
      'off',
      'log',
      'flag',
      'quarantine',
      'block',
    ]);
    expect(selected(html, 'guardrails.injection.tool_results')).toBe('');
    expect(html).toMatch(/name="guardrails.injection_tool_threshold" type="number"/);
    expect(selected(html, 'guardrails.pii.request')).toBe('off');
    expect(html).toMatch(/<textarea id="f-guardrails-deny-terms" name="guardrails.deny.terms"/);
  });

  it('saves the policy the form describes, and shows it back', async () => {
    const t = await createTenant('Careful Co');
    await b.page(`/dashboard/tenants/${t.id}`);
    const res = await b.post(`/dashboard/tenants/${t.id}/guardrails`, {
      ...ALL_OFF,
      'guardrails.pii.request': 'redact',
      'guardrails.pii.response': 'redact',
      'guardrails.injection.request': 'block',
      'guardrails.secrets.request': 'flag',
      'guardrails.denylist.request': 'block',
      'guardrails.injection_threshold': '0.7',
      'guardrails.injection.tool_results': 'quarantine',
      'guardrails.injection_tool_threshold': '0.8',
      'guardrails.restore': 'on',
      'guardrails.deny.terms': 'Project Falcon\r\n  \r\n  codename kestrel  \r\n',
      'guardrails.deny.patterns': '\\bacct-\\d{6}\\b\r\n',
    });
    expect(res.status, await res.clone().text()).toBe(303);
    expect(location(res)).toBe(`/dashboard/tenants/${t.id}?notice=guardrails-saved`);

    const stored = asTenant(await admin('GET', `/tenants/${t.id}`)).guardrails;
    expect(stored).toEqual({
      pii: { request: 'redact', response: 'redact' },
      injection: { request: 'block', tool_results: 'quarantine' },
      secrets: { request: 'flag' },
      denylist: { request: 'block' },
      injection_threshold: 0.7,
      injection_tool_threshold: 0.8,
      restore: true,
      deny: { terms: ['Project Falcon', 'codename kestrel'], patterns: ['\\bacct-\\d{6}\\b'] },
    });

    const html = await b.page(location(res));
    expect(html).toContain('Guardrails saved; they apply from the next request.');
    expect(selected(html, 'guardrails.pii.request')).toBe('redact');
    expect(selected(html, 'guardrails.injection.request')).toBe('block');
    expect(selected(html, 'guardrails.secrets.response')).toBe('off');
    expect(html).toMatch(/name="guardrails.injection_threshold" type="number" value="0.7"/);
    expect(selected(html, 'guardrails.injection.tool_results')).toBe('quarantine');
    expect(html).toMatch(/name="guardrails.injection_tool_threshold" type="number" value="0.8"/);
    expect(html).toMatch(/<input type="checkbox" name="guardrails.restore" checked=""/);
    expect(html).toMatch(/name="guardrails.deny.terms"[^>]*>Project Falcon\ncodename kestrel<\/textarea>/);
  });

  it('all off clears the policy', async () => {
    const t = await createTenant('Relaxed', { guardrails: { pii: { request: 'redact' }, restore: true } });
    await b.page(`/dashboard/tenants/${t.id}`);
    const res = await b.post(`/dashboard/tenants/${t.id}/guardrails`, ALL_OFF);
    expect(res.status).toBe(303);
    expect(asTenant(await admin('GET', `/tenants/${t.id}`)).guardrails).toEqual({});
  });

  it('a deny-list pattern the linear-time engine refuses: the error in words, the form kept, nothing stored', async () => {
    const before = { pii: { request: 'log' as const }, deny: { terms: ['old term'], patterns: [] } };
    const t = await createTenant('Regex Fan', { guardrails: before });
    await b.page(`/dashboard/tenants/${t.id}`);
    const res = await b.post(`/dashboard/tenants/${t.id}/guardrails`, {
      ...ALL_OFF,
      'guardrails.pii.request': 'block',
      'guardrails.deny.terms': 'new term',
      'guardrails.deny.patterns': 'fine-\\d+\n(a+)\\1',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('The guardrails were not saved');
    expect(html).toContain('patterns[1]: backreferences');
    expect(html).toContain('(field <code>guardrails.deny</code>)');
    expect(html).toMatch(
      /<textarea id="f-guardrails-deny-patterns"[^>]*aria-invalid="true"[^>]*>fine-\\d\+\n\(a\+\)\\1<\/textarea>/,
    );
    expect(selected(html, 'guardrails.pii.request')).toBe('block');
    expect(asTenant(await admin('GET', `/tenants/${t.id}`)).guardrails).toEqual(before);
  });

  it('a threshold out of range is refused next to its field', async () => {
    const t = await createTenant('Thresholds');
    await b.page(`/dashboard/tenants/${t.id}`);
    const res = await b.post(`/dashboard/tenants/${t.id}/guardrails`, {
      ...ALL_OFF,
      'guardrails.injection.request': 'block',
      'guardrails.injection_threshold': '1.5',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('(field <code>guardrails.injection_threshold</code>)');
    expect(html).toMatch(/id="f-guardrails-injection_threshold"[^>]*value="1.5"[^>]*aria-invalid="true"/);
    expect(asTenant(await admin('GET', `/tenants/${t.id}`)).guardrails).toEqual({});
  });

  it('without the CSRF token nothing is stored', async () => {
    const t = await createTenant('No Token');
    await b.page(`/dashboard/tenants/${t.id}`);
    const res = await b.post(
      `/dashboard/tenants/${t.id}/guardrails`,
      { ...ALL_OFF, 'guardrails.pii.request': 'block' },
      { csrf: null },
    );
    expect(res.status).toBe(403);
    expect(asTenant(await admin('GET', `/tenants/${t.id}`)).guardrails).toEqual({});
  });
});

describe("a key's guardrails form", () => {
  it("says it narrows the tenant's, saves the key's policy and keeps its own deny-list additions", async () => {
    const t = await createTenant('Narrow Inc', {
      guardrails: {
        pii: { request: 'redact' },
        injection: { request: 'flag' },
        restore: true,
        deny: { terms: ['a', 'b'], patterns: [] },
      },
    });
    const k = await createKey(t.id, {
      name: 'strict app',
      guardrails: { deny: { terms: ['internal only'], patterns: [] } },
    });
    let html = await b.page(`/dashboard/keys/${k.id}`);
    expect(text(html)).toContain("This key's policy narrows its tenant's");
    expect(html).toMatch(/<select id="f-guardrails-restore" name="guardrails.restore">/);
    expect(html).not.toContain('name="guardrails.deny.terms"');

    const res = await b.post(`/dashboard/keys/${k.id}/guardrails`, {
      ...ALL_OFF,
      'guardrails.pii.request': 'log',
      'guardrails.secrets.request': 'block',
      'guardrails.injection.tool_results': 'quarantine',
      'guardrails.injection_tool_threshold': '0.7',
      'guardrails.restore': 'never',
    });
    expect(res.status, await res.clone().text()).toBe(303);
    expect(location(res)).toBe(`/dashboard/keys/${k.id}?notice=guardrails-saved`);
    expect(asKey(await admin('GET', `/keys/${k.id}`)).guardrails).toEqual({
      pii: { request: 'log' },
      secrets: { request: 'block' },
      injection: { tool_results: 'quarantine' },
      injection_tool_threshold: 0.7,
      restore: false,
      deny: { terms: ['internal only'], patterns: [] },
    });

    html = await b.page(location(res));
    expect(html).toContain('Guardrails saved');
    expect(selected(html, 'guardrails.secrets.request')).toBe('block');
    expect(selected(html, 'guardrails.restore')).toBe('never');
    const rows = tableRows(html, 'The tenant&#39;s policy, this key&#39;s, and the effective result');
    const row = (name: string, side: string) => rows.find((r) => r[0] === name && r[1] === side);
    expect(row('Personal data', 'requests')).toEqual([
      'Personal data',
      'requests',
      'redact',
      'log',
      'redact',
    ]);
    expect(row('Secrets', 'requests')).toEqual([
      'Secrets',
      'requests',
      'off',
      'block',
      'block raised by the key',
    ]);
    expect(row('Prompt injection', 'answers')).toBeUndefined();
    expect(row('Prompt injection', 'tool results')).toEqual([
      'Prompt injection',
      'tool results',
      'flag (as requests)',
      'quarantine',
      'quarantine raised by the key',
    ]);
    expect(row('Injection threshold', 'tool results')).toEqual([
      'Injection threshold',
      'tool results',
      'default',
      '0.7',
      '0.7',
    ]);
    expect(row('Restore redacted values', 'answers')).toEqual([
      'Restore redacted values',
      'answers',
      'yes',
      'never',
      'no',
    ]);
    expect(row('Deny-list', 'both')).toEqual([
      'Deny-list',
      'both',
      '2 terms, 0 patterns',
      'adds 1 term, 0 patterns',
      '3 terms, 0 patterns',
    ]);
  });

  it("an action a guardrail cannot take is refused in the API's words, and the key is unchanged", async () => {
    const t = await createTenant('Refusals');
    const k = await createKey(t.id);
    await b.page(`/dashboard/keys/${k.id}`);
    const res = await b.post(`/dashboard/keys/${k.id}/guardrails`, {
      ...ALL_OFF,
      'guardrails.injection.request': 'redact',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('The guardrails were not saved');
    expect(html).toContain('&#39;injection&#39; cannot redact');
    expect(html).toMatch(/<select id="f-guardrails-injection-request"[^>]*aria-invalid="true"/);
    expect(asKey(await admin('GET', `/keys/${k.id}`)).guardrails).toEqual({});
  });
});

describe('verdicts on the logs pages', () => {
  const verdicts: LogGuardrail[] = [
    {
      guardrail: 'pii',
      direction: 'request',
      action: 'redact',
      count: 3,
      kinds: { email: 1, card: 2 },
      score: null,
      error: null,
    },
    {
      guardrail: 'injection',
      direction: 'request',
      action: 'block',
      count: 1,
      kinds: { injection: 1 },
      score: 0.9312,
      error: null,
    },
    {
      guardrail: 'llama_guard',
      direction: 'request',
      action: 'flag',
      count: 0,
      kinds: {},
      score: null,
      error: 'unavailable',
    },
    {
      guardrail: 'secrets',
      direction: 'response',
      action: 'redact',
      count: 1,
      kinds: { openai_key: 1 },
      score: null,
      error: null,
    },
    {
      guardrail: 'injection',
      direction: 'tool',
      action: 'quarantine',
      count: 2,
      kinds: { tool_result: 2 },
      score: 0.9731,
      error: null,
      results: [
        { index: 1, id: 'call_mail', score: 0.9731 },
        { index: 3, id: null, score: 0.8812 },
      ],
    },
  ];
  const guarded = logEvent({
    tenantId: 'ten_gv',
    status: 400,
    errorCode: 'guardrail_blocked',
    guardrails: verdicts,
  });
  const plain = logEvent({ tenantId: 'ten_gv' });
  beforeAll(() => deliver(LOG_QUEUE, [guarded, plain]));

  it("shows a request's verdicts: guardrail, side, action, count, kinds, score, error", async () => {
    const html = await b.page(`/dashboard/logs/${guarded.requestId}`);
    expect(html).toContain('<h2 id="guardrails-h">Guardrails</h2>');
    expect(tableRows(html, 'What each guardrail found and did')).toEqual([
      ['pii', 'request', 'redact', '3', 'card ×2, email ×1', '—', '—'],
      ['injection', 'request', 'block', '1', 'injection ×1', '0.931', '—'],
      ['llama_guard', 'request', 'flag', '0', '—', '—', 'unavailable (let through)'],
      ['secrets', 'answer', 'redact', '1', 'openai_key ×1', '—', '—'],
      ['injection', 'tool results', 'quarantine', '2', 'tool_result ×2', '0.973', '—'],
    ]);
    // The tool results it withheld: id, position and score; the log holds nothing of their text to show.
    expect(tableRows(html, 'Tool results quarantined')).toEqual([
      ['call_mail', '#1', '0.9731'],
      ['none', '#3', '0.8812'],
    ]);
  });

  it('says so when no guardrail fired', async () => {
    const html = await b.page(`/dashboard/logs/${plain.requestId}`);
    expect(html).toContain('No guardrail fired on this request.');
    expect(html).not.toContain('What each guardrail found and did');
  });

  it('marks each verdict with a badge in the list', async () => {
    const list = await b.page('/dashboard/logs?tenant_id=ten_gv');
    expect(list).toContain('<th scope="col">Guardrails</th>');
    const row = (id: string) =>
      new RegExp(`<tr>(?:(?!<tr>)[\\s\\S])*?${id}[\\s\\S]*?</tr>`).exec(list)?.[0] ?? '';
    const badges = [
      ...row(guarded.requestId).matchAll(
        /<span class="badge (?:log|flag|redact|quarantine|block)"[^>]*>([^<]*)<\/span>/g,
      ),
    ].map((m) => m[1]);
    expect(badges).toEqual([
      'pii redact ×3',
      'injection block',
      'llama_guard flag !',
      'secrets (answer) redact',
      'injection (tools) quarantine ×2',
    ]);
    expect(row(plain.requestId)).not.toMatch(/class="badge (log|flag|redact|block)"/);
  });
});

describe('guardrails per day on the usage page', () => {
  beforeAll(async () => {
    const rows: [string, string, string, string, number, number, number][] = [
      ['ten_gu', '2026-03-01', 'key_1', 'pii', 4, 0, 9],
      ['ten_gu', '2026-03-01', 'key_2', 'pii', 1, 1, 0],
      ['ten_gu', '2026-03-01', 'key_1', 'injection', 2, 2, 0],
      ['ten_gu', '2026-03-03', 'key_1', 'secrets', 1, 0, 1],
      ['ten_other', '2026-03-02', 'key_9', 'pii', 50, 50, 0],
    ];
    await env.DB.batch(
      rows.map((r) =>
        env.DB.prepare(
          `INSERT INTO guardrail_daily (tenant_id, day, key_id, guardrail, fired, blocked, redacted)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).bind(...r),
      ),
    );
  });

  it("shows the tenant's rollups per day and guardrail, newest day first, with totals", async () => {
    const html = await b.page('/dashboard/usage?tenant_id=ten_gu&from=2026-03-01&to=2026-03-05');
    expect(html).toContain('<h2 id="guardrail-days-h">Guardrails per day</h2>');
    expect(html).toContain(
      '<caption>Guardrails: 8 requests fired on, 3 blocked, 10 values redacted</caption>',
    );
    expect(tableRows(html, 'Guardrails:')).toEqual([
      ['2026-03-03', 'secrets', '1', '0', '1'],
      ['2026-03-01', 'injection', '2', '2', '0'],
      ['2026-03-01', 'pii', '5', '1', '9'],
    ]);
  });

  it('narrows to one key, and says so when nothing fired in the range', async () => {
    const key = await b.page('/dashboard/usage?tenant_id=ten_gu&key_id=key_2&from=2026-03-01&to=2026-03-05');
    expect(tableRows(key, 'Guardrails:')).toEqual([['2026-03-01', 'pii', '1', '1', '0']]);
    const empty = await b.page('/dashboard/usage?tenant_id=ten_gu&from=2026-02-01&to=2026-02-10');
    expect(empty).toContain('No guardrail fired in this range.');
  });
});
