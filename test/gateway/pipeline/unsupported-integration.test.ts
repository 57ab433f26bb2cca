/**
 * on_unsupported through the real gateway: a Messages request whose translation to an OpenAI-format
 * model drops `context_management` is served and names it under "drop", and is refused with a 400
 * before anything is reserved under a key's, a tenant's or a route's "refuse"; on a fallback route a
 * target that would drop is skipped for one that takes the request whole.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { admin, createKey, createTenant } from '../admin-helpers';
import { asJson, type Loose } from '../answer-helpers';
import { harness } from '../exchange-harness';
import { post } from '../helpers';

const ANTHROPIC = { 'anthropic-version': '2023-06-01' };

/** A Messages body with a field only Anthropic carries (dropped for every other format). */
const messages = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  max_tokens: 64,
  messages: [{ role: 'user', content: 'Hello there, mock.' }],
  context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
  ...extra,
});

let dropKey: string;
let refuseKey: string;
let refusingTenantKey: string;

async function route(tenantId: string, name: string, spec: Record<string, unknown>): Promise<void> {
  const res = await admin('POST', '/routes', { name, tenant_id: tenantId, spec });
  expect(res.status, res.text).toBe(201);
}

beforeAll(async () => {
  const tenant = await createTenant('unsupported-drop');
  dropKey = (await createKey(tenant.id, { limits: { rpm: 1000 } })).key;
  refuseKey = (await createKey(tenant.id, { on_unsupported: 'refuse', limits: { rpm: 1000 } })).key;
  const strict = await createTenant('unsupported-refuse', { on_unsupported: 'refuse' });
  // The key says drop; its tenant's refuse wins.
  refusingTenantKey = (await createKey(strict.id, { on_unsupported: 'drop' })).key;
  await route(tenant.id, 'strict-only', {
    strategy: 'fallback',
    on_unsupported: 'refuse',
    targets: [{ model: 'gpt-only/echo' }],
  });
  await route(tenant.id, 'strict-fallback', {
    strategy: 'fallback',
    on_unsupported: 'refuse',
    targets: [{ model: 'gpt-only/echo' }, { model: 'claude-only/echo' }],
  });
  await route(tenant.id, 'strict-after-503', {
    strategy: 'fallback',
    on_unsupported: 'refuse',
    targets: [{ model: 'claude-only/echo;status=503' }, { model: 'gpt-only/echo' }],
  });
  await route(tenant.id, 'loose-fallback', {
    strategy: 'fallback',
    targets: [{ model: 'gpt-only/echo' }, { model: 'claude-only/echo' }],
  });
});

describe('under drop (the default)', () => {
  it('serves the request and names what the translation left out', async () => {
    const res = await post('/v1/messages', messages('gpt-only/echo'), dropKey, ANTHROPIC);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-dropped')).toBe('context_management');
    expect(((await res.json()) as Loose).type).toBe('message');
  });

  it('lets a route without the setting call its first target, dropping and naming', async () => {
    const res = await post('/v1/messages', messages('loose-fallback'), dropKey, ANTHROPIC);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-target')).toBe('gpt-only/echo');
    expect(res.headers.get('x-edgeway-dropped')).toBe('context_management');
  });
});

describe('under refuse', () => {
  it.each([
    ["the key's", () => refuseKey, 'gpt-only/echo', "key's policy"],
    ["the tenant's", () => refusingTenantKey, 'gpt-only/echo', "tenant's policy"],
    ["the route's", () => dropKey, 'strict-only', "route's policy"],
  ])(
    '%s policy refuses with 400 in the client envelope, before anything is reserved',
    async (_w, key, model, whose) => {
      const h = harness();
      const { res, body } = await h.call(messages(model), key(), asJson, ANTHROPIC, '/v1/messages');
      expect(res.status).toBe(400);
      expect(res.headers.get('x-edgeway-error-source')).toBe('gateway');
      expect(res.headers.get('x-edgeway-dropped')).toBe(null);
      expect(body.type).toBe('error');
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toContain("This field cannot be carried to 'gpt-only/echo'");
      expect(body.error.message).toContain("'context_management'");
      expect(body.error.message).toContain(`${whose} (on_unsupported: refuse)`);
      expect(h.counts.settles).toEqual([]);
      const event = h.counts.events[0] as Loose;
      expect(event.status).toBe(400);
      expect(event.tries.every((t: Loose) => t.status === 0)).toBe(true);
    },
  );

  it('gives an OpenAI client code unsupported_field and the first dropped field as param', async () => {
    const res = await post(
      '/v1/chat/completions',
      { model: 'claude-only/echo', messages: [{ role: 'user', content: 'hi' }], seed: 7 },
      refuseKey,
      { 'openai-organization': 'org-test' },
    );
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as Loose;
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_field', param: 'seed' });
    // A header the provider is not sent counts as dropped too.
    expect(error.message).toContain("'seed', 'openai-organization'");
    expect(error.message).toContain('anthropic format has no equivalent for them');
  });

  it('refuses a header meant for another format even when every field is carried', async () => {
    const { context_management: _, ...plain } = messages('gpt-only/echo');
    const res = await post('/v1/messages', plain, refuseKey, { ...ANTHROPIC, 'anthropic-beta': 'x-2025' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Loose).error.message).toContain("'anthropic-beta'");
  });

  it('serves a translated request that drops nothing, and any same-format request', async () => {
    const { context_management: _, ...plain } = messages('gpt-only/echo');
    const translated = await post('/v1/messages', plain, refuseKey, ANTHROPIC);
    expect(translated.status).toBe(200);
    expect(translated.headers.get('x-edgeway-dropped')).toBe(null);
    const same = await post('/v1/messages', messages('claude-only/echo'), refuseKey, ANTHROPIC);
    expect(same.status).toBe(200);
  });

  it('on a fallback route, skips the target that would drop and serves the request whole from the next', async () => {
    const h = harness();
    const { res, body } = await h.call(
      messages('strict-fallback'),
      dropKey,
      asJson,
      ANTHROPIC,
      '/v1/messages',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-target')).toBe('claude-only/echo');
    expect(res.headers.get('x-edgeway-dropped')).toBe(null);
    expect(body.content[0].text).toBe('Hello there, mock.');
    expect((h.counts.events[0] as Loose).tries).toEqual([
      expect.objectContaining({ target: 'gpt-only/echo', status: 0, error: 'unsupported_field' }),
      expect.objectContaining({ target: 'claude-only/echo', status: 200 }),
    ]);
  });

  it("a key's refuse skips the dropping target of a route that would drop", async () => {
    const res = await post('/v1/messages', messages('loose-fallback'), refuseKey, ANTHROPIC);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-target')).toBe('claude-only/echo');
  });

  it("keeps an earlier target's upstream failure as the answer when the rest are refused", async () => {
    const h = harness();
    const { res } = await h.call(messages('strict-after-503'), dropKey, asJson, ANTHROPIC, '/v1/messages');
    expect(res.status).toBe(503);
    expect((h.counts.events[0] as Loose).tries.map((t: Loose) => [t.target, t.error])).toEqual([
      ['claude-only/echo;status=503', expect.any(String)],
      ['gpt-only/echo', 'unsupported_field'],
    ]);
  });
});
