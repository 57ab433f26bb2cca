/**
 * Guardrail policies in the admin API: written on tenants and keys, validated
 * (actions a guardrail cannot take, deny-list patterns the linear-time engine
 * refuses), read back, described by the OpenAPI document, and applied to the
 * next request at once (the key records are invalidated). Verdicts reach the
 * log detail and the per-day rollups exactly once per event.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { LogGuardrail } from '../../../../src/core/log-event';
import { admin, createKey, createTenant, v1 } from '../../admin-helpers';
import { clearLogs, deliver, LOG_QUEUE, logEvent, waitForLogs } from '../../log-fixtures';

const PII_REDACT = { pii: { request: 'redact' } };

describe('guardrail policies', () => {
  it('are stored on tenants and keys and returned as written', async () => {
    const tenant = await createTenant('guarded', {
      guardrails: { ...PII_REDACT, deny: { terms: ['bluebird'], patterns: ['inv-\\d{6}'] } },
    });
    expect(tenant.guardrails).toEqual({
      ...PII_REDACT,
      deny: { terms: ['bluebird'], patterns: ['inv-\\d{6}'] },
    });
    const key = await createKey(tenant.id, { guardrails: { injection: { request: 'block' } } });
    expect(key.guardrails).toEqual({ injection: { request: 'block' } });
    const read = await admin('GET', `/keys/${key.id}`);
    expect((read.json as { guardrails: unknown }).guardrails).toEqual({ injection: { request: 'block' } });
  });

  it('refuse an action a guardrail cannot take, and answers-side injection', async () => {
    const tenant = await createTenant('bad');
    const redactInjection = await admin('PATCH', `/tenants/${tenant.id}`, {
      guardrails: { injection: { request: 'redact' } },
    });
    expect(redactInjection.status).toBe(400);
    expect(redactInjection.text).toContain('cannot redact');
    const answers = await admin('PATCH', `/tenants/${tenant.id}`, {
      guardrails: { injection: { response: 'block' } },
    });
    expect(answers.status).toBe(400);
    const unknown = await admin('PATCH', `/tenants/${tenant.id}`, {
      guardrails: { pii: { request: 'mask' } },
    });
    expect(unknown.status).toBe(400);
  });

  it('take tool_results on the injection rule only, quarantine only there, and a tool-result threshold', async () => {
    const tenant = await createTenant('tools');
    const policy = {
      injection: { request: 'flag', tool_results: 'quarantine' },
      injection_tool_threshold: 0.8,
    };
    const ok = await admin('PATCH', `/tenants/${tenant.id}`, { guardrails: policy });
    expect(ok.status).toBe(200);
    expect((ok.json as { guardrails: unknown }).guardrails).toEqual(policy);
    for (const [guardrails, words] of [
      [{ injection: { request: 'quarantine' } }, 'set injection.tool_results'],
      [{ pii: { request: 'quarantine' } }, 'set injection.tool_results'],
      [{ pii: { tool_results: 'quarantine' } }, 'set injection.tool_results'],
      [{ injection: { tool_results: 'redact' } }, 'cannot be redacted'],
      [{ injection_tool_threshold: 1.2 }, 'injection_tool_threshold'],
    ] as const) {
      const res = await admin('PATCH', `/tenants/${tenant.id}`, { guardrails });
      expect(res.status, JSON.stringify(guardrails)).toBe(400);
      expect(res.text).toContain(words);
    }
    expect((await admin('GET', `/tenants/${tenant.id}`)).json).toMatchObject({ guardrails: policy });
  });

  it('refuse deny-list patterns that could not be matched in linear time, naming the entry', async () => {
    const tenant = await createTenant('patterns');
    for (const pattern of ['(a)\\1', '(?=x)y', '((a{1000}){1000}){1000}', '(unclosed']) {
      const res = await admin('PATCH', `/tenants/${tenant.id}`, {
        guardrails: { denylist: { request: 'block' }, deny: { patterns: ['fine', pattern] } },
      });
      expect(res.status, pattern).toBe(400);
      expect(res.text).toContain('patterns[1]');
    }
    const stored = await admin('GET', `/tenants/${tenant.id}`);
    expect((stored.json as { guardrails: unknown }).guardrails).toEqual({});
  });

  it('apply to the next request at once when a tenant’s policy changes', async () => {
    const tenant = await createTenant('live');
    const key = await createKey(tenant.id);
    const body = { model: 'mock/echo', messages: [{ role: 'user', content: 'mail jane@example.com' }] };
    const before = await (await v1('/chat/completions', key.key, body)).json();
    expect(JSON.stringify(before)).toContain('jane@example.com');
    expect((await admin('PATCH', `/tenants/${tenant.id}`, { guardrails: PII_REDACT })).status).toBe(200);
    const after = await v1('/chat/completions', key.key, body);
    expect(after.headers.get('x-edgeway-guardrails')).toBe('pii:request:redact:1');
    expect(JSON.stringify(await after.json())).not.toContain('jane@example.com');
  });

  it('are in the OpenAPI document', async () => {
    const doc = (await admin('GET', '/openapi.json')).json as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const text = JSON.stringify(doc);
    for (const word of [
      'injection_threshold',
      'injection_tool_threshold',
      'tool_results',
      'quarantine',
      'llama_guard',
      'restore',
      'redacted',
    ])
      expect(text).toContain(word);
  });
});

describe('guardrail verdicts in logs and rollups', () => {
  beforeEach(clearLogs);

  const verdict = (overrides: Partial<LogGuardrail>): LogGuardrail => ({
    guardrail: 'pii',
    direction: 'request',
    action: 'redact',
    count: 2,
    kinds: { email: 1, card: 1 },
    score: null,
    error: null,
    ...overrides,
  });

  it('reach the log detail and count once per event in the daily rollup, however often delivered', async () => {
    const redacted = logEvent({ tenantId: 'ten_gr', keyId: 'key_gr', guardrails: [verdict({})] });
    const blocked = logEvent({
      tenantId: 'ten_gr',
      keyId: 'key_gr',
      status: 400,
      errorCode: 'guardrail_blocked',
      guardrails: [
        verdict({ guardrail: 'injection', action: 'block', count: 1, kinds: { prompt: 1 }, score: 0.97 }),
      ],
    });
    const unavailable = logEvent({
      tenantId: 'ten_gr',
      keyId: 'key_gr',
      guardrails: [
        verdict({ guardrail: 'llama_guard', action: 'block', count: 0, kinds: {}, error: 'unavailable' }),
      ],
    });
    const batch = { v: 2, isolate: 'iso-gr', seq: 1, sent: 3, events: [redacted, blocked, unavailable] };
    expect((await deliver(LOG_QUEUE, [{ body: batch }])).ackAll).toBe(true);
    // A redelivery of the same batch adds nothing.
    expect((await deliver(LOG_QUEUE, [{ body: batch }])).ackAll).toBe(true);
    await waitForLogs([redacted.requestId, blocked.requestId, unavailable.requestId]);

    const detail = (await admin('GET', `/logs/${redacted.requestId}`)).json as { guardrails: unknown[] };
    expect(detail.guardrails).toEqual([
      {
        guardrail: 'pii',
        direction: 'request',
        action: 'redact',
        count: 2,
        kinds: { email: 1, card: 1 },
        score: null,
        error: null,
      },
    ]);

    const day = new Date(redacted.time).toISOString().slice(0, 10);
    const usage = (await admin('GET', `/usage?tenant_id=ten_gr&from=${day}&to=${day}`)).json as {
      guardrails: { day: string; guardrail: string; fired: number; blocked: number; redacted: number }[];
    };
    expect(usage.guardrails).toEqual([
      { day, guardrail: 'injection', fired: 1, blocked: 1, redacted: 0 },
      { day, guardrail: 'pii', fired: 1, blocked: 0, redacted: 2 },
    ]);
  });

  it('count tool-result verdicts as the injection guardrail firing: quarantine fires, block blocks', async () => {
    const tool = (action: LogGuardrail['action']) =>
      verdict({
        guardrail: 'injection',
        direction: 'tool',
        action,
        count: 1,
        kinds: { tool_result: 1 },
        score: 0.97,
        results: [{ index: 0, id: 'call_a', score: 0.97 }],
      });
    const quarantined = logEvent({ tenantId: 'ten_gt', keyId: 'key_gt', guardrails: [tool('quarantine')] });
    const blocked = logEvent({
      tenantId: 'ten_gt',
      keyId: 'key_gt',
      status: 400,
      guardrails: [tool('block')],
    });
    const batch = { v: 2, isolate: 'iso-gt', seq: 1, sent: 2, events: [quarantined, blocked] };
    expect((await deliver(LOG_QUEUE, [{ body: batch }])).ackAll).toBe(true);
    await waitForLogs([quarantined.requestId, blocked.requestId]);
    const detail = (await admin('GET', `/logs/${quarantined.requestId}`)).json as { guardrails: unknown[] };
    expect(detail.guardrails).toEqual([tool('quarantine')]);
    const day = new Date(quarantined.time).toISOString().slice(0, 10);
    const usage = (await admin('GET', `/usage?tenant_id=ten_gt&from=${day}&to=${day}`)).json as {
      guardrails: unknown[];
    };
    expect(usage.guardrails).toEqual([{ day, guardrail: 'injection', fired: 2, blocked: 1, redacted: 0 }]);
  });
});
