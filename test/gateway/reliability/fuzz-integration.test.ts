/**
 * Property-based fuzzing of every endpoint through the worker's fetch handler:
 * each generated request, however bad, gets a non-5xx answer in its route's
 * envelope, and the gateway still serves good requests afterwards. A few
 * thousand cases with fixed seeds, so a failure replays; bench/fuzz.mjs runs
 * the same generators for 100,000+ cases against workerd.
 *
 * The cases call the Worker's default export with a fresh execution context
 * (waiting on its waitUntil work, so logging runs too) rather than SELF.fetch:
 * in @cloudflare/vitest-pool-workers 0.15 each SELF.fetch in a file costs more
 * than the last (/healthz: 4 ms at the 100th call, 40 ms at the 300th), which
 * would make thousands of cases take minutes.
 */
import { SELF, createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Family,
  type FuzzCase,
  type FuzzContext,
  GOOD_ADMIN_ADDRESS,
  fuzzCase,
} from '../../fuzz/generators';
import { type Answer, violations } from '../../fuzz/invariants';
import { chunkedStream, materialize } from '../../fuzz/template';
import { ADMIN_TOKEN, createKey, createTenant } from '../admin-helpers';
import { Browser, ORIGIN } from '../dashboard-helpers';
import { chatBody, post, seedKey } from '../helpers';
import { limitedKey } from '../limits-helpers';
import worker from '../../../src/index';

const RUNS: Record<Family, number> = {
  chat: 700,
  messages: 500,
  embeddings: 350,
  models: 120,
  admin: 500,
  dashboard: 300,
  other: 150,
};

let fuzz: FuzzContext;
/**
 * The Worker's bindings with a 1 ms log batch wait: each case waits for its execution context, and with the
 * suite's 50 ms wait that timer was nearly all of a /v1 case's time (about 55 ms a case). Logging still runs.
 */
const fuzzEnv = { ...env, LOG_BATCH_WAIT_MS: '1' };
const seen = new Map<string, number>();

beforeAll(async () => {
  const tenant = await createTenant(`fuzz-victim-${crypto.randomUUID()}`);
  const victim = await createKey(tenant.id, { name: 'victim' });
  const browser = new Browser();
  await browser.signIn();
  fuzz = {
    keys: {
      plain: (await seedKey()).secret,
      limited: (
        await limitedKey({ limits: { concurrent: 4, rpm: 1_000_000 }, budgets: { tokens: { day: 1e12 } } })
      ).secret,
      cached: (await seedKey({ cache: { exact: true } })).secret,
    },
    adminToken: ADMIN_TOKEN,
    victimTenantId: tenant.id,
    victimKeyId: victim.id,
    dashboard: { cookie: browser.cookieHeader(), csrf: browser.csrf },
    origin: ORIGIN,
    hugeBytes: 300_000,
    deepLevels: 20_000,
  };
});

afterAll(() => {
  console.log('fuzz statuses', Object.fromEntries([...seen].sort(([a], [b]) => (a < b ? -1 : 1))));
});

async function send(c: FuzzCase): Promise<Answer> {
  const bytes = c.body === null ? null : materialize(c.body);
  const request = new Request(`${ORIGIN}${c.path}`, {
    method: c.method,
    headers: c.headers,
    body: bytes && c.chunked ? chunkedStream(bytes) : bytes,
    redirect: 'manual',
  });
  const execution = createExecutionContext();
  const res = await worker.fetch(request, fuzzEnv, execution);
  const body = await res.text();
  await waitOnExecutionContext(execution);
  const tally = `${c.family} ${res.status}`;
  seen.set(tally, (seen.get(tally) ?? 0) + 1);
  return {
    method: c.method,
    path: new URL(`${ORIGIN}${c.path}`).pathname,
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    body,
    anthropicVersion: request.headers.has('anthropic-version'),
  };
}

describe('fuzzed requests never get a 5xx and always get their route’s envelope', () => {
  const families = Object.keys(RUNS) as Family[];
  families.forEach((family, i) => {
    it(`${family}: ${RUNS[family]} cases`, { timeout: 60_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(fuzzCase(fuzz, family), async (c) => {
          expect(violations(await send(c))).toEqual([]);
        }),
        { numRuns: RUNS[family], seed: 12_000 + i, endOnFailure: true },
      );
    });
  });

  it('stays healthy after: /healthz, a chat, a message and an admin read all succeed', async () => {
    expect((await SELF.fetch(`${ORIGIN}/healthz`)).status).toBe(200);
    const chat = await post('/v1/chat/completions', chatBody('still there?'), fuzz.keys.plain);
    expect(chat.status).toBe(200);
    await chat.arrayBuffer();
    const message = await post(
      '/v1/messages',
      { ...chatBody('still there?'), max_tokens: 16 },
      fuzz.keys.limited,
    );
    expect(message.status).toBe(200);
    await message.arrayBuffer();
    const tenants = await SELF.fetch(`${ORIGIN}/admin/tenants`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'cf-connecting-ip': GOOD_ADMIN_ADDRESS },
    });
    expect(tenants.status).toBe(200);
  });
});
