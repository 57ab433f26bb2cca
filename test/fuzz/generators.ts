/**
 * fast-check generators of bad (and some good) requests for every endpoint:
 * /v1/chat/completions, /v1/embeddings, /v1/messages, /v1/models, the /admin
 * JSON API, the dashboard's forms, and stray paths and methods. Bodies are
 * built as raw JSON text so they can carry what JSON.stringify cannot write
 * (1e309, -1e309), plus deep nesting, huge strings, wrong types, bad UTF-8 and
 * truncation; headers carry odd content types, bearer values and the
 * cf-aig-* / x-edgeway-* controls. Shared by the vitest suite
 * (test/gateway/reliability) and bench/fuzz.mjs; longer than most files
 * because it is one table of everything the fuzz sends.
 *
 * Two things are never generated, since they make the answer a legitimate
 * 5xx rather than a bad-input one: the mock upstream's `mock` fault controls,
 * and a valid cf-aig-request-timeout short enough to time out.
 */
import fc from 'fast-check';
import { bytes, repeat } from './template';

export interface FuzzContext {
  /** Keys: without limits, with budgets and a concurrency limit, with exact caching. */
  readonly keys: { readonly plain: string; readonly limited: string; readonly cached: string };
  readonly adminToken: string;
  /** A tenant and key the admin and dashboard cases may change, disable or revoke. */
  readonly victimTenantId: string;
  readonly victimKeyId: string;
  /** A signed-in dashboard session, if any; and the origin its forms must come from. */
  readonly dashboard: { readonly cookie: string; readonly csrf: string } | null;
  readonly origin: string;
  /** Sizes of the largest generated parts; the bench goes past the 1 MiB body limit. */
  readonly hugeBytes: number;
  readonly deepLevels: number;
}

export type Family = 'chat' | 'embeddings' | 'messages' | 'models' | 'admin' | 'dashboard' | 'other';

export interface FuzzCase {
  readonly family: Family;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A template (see template.ts), or null for no body. */
  readonly body: string | null;
  readonly chunked: boolean;
}

/** Admin requests with the right token come from this address, so wrong tokens never throttle them. */
export const GOOD_ADMIN_ADDRESS = '10.77.0.1';

type Arb<T> = fc.Arbitrary<T>;

// ---- JSON text -------------------------------------------------------------------------------

/** Numbers as raw JSON text: out of range, non-finite, fractional, or not numbers at all. */
export const badNumber: Arb<string> = fc.oneof(
  fc.constantFrom(
    '-1',
    '0',
    '-0',
    '1.5',
    '-1e309',
    '1e309',
    '1e400',
    '-1000000',
    '20000000',
    '9007199254740993',
    '1e-400',
    '129',
    '"NaN"',
    '"Infinity"',
    '"-1"',
    'null',
    'true',
    '[]',
    '{}',
    '""',
  ),
  fc.integer().map(String),
  fc.double({ noNaN: true }).map((d) => (Number.isFinite(d) ? String(d) : d > 0 ? '1e309' : '-1e309')),
);

const shortString: Arb<string> = fc.string({ unit: 'binary', maxLength: 24 }).map((s) => JSON.stringify(s));

const hugeString = (max: number): Arb<string> =>
  fc.integer({ min: 1_000, max }).map((n) => `"${repeat(n, 'x')}"`);

const deepValue = (max: number): Arb<string> =>
  fc
    .record({
      levels: fc.integer({ min: 2, max }),
      open: fc.constantFrom('[', '{"a":'),
      balanced: fc.boolean(),
    })
    .map(({ levels, open, balanced }) => {
      const close = open === '[' ? ']' : '}';
      return `${repeat(levels, open)}1${balanced ? repeat(levels, close) : ''}`;
    });

/** Object keys: the fields the gateway reads, their near misses, and random text; never `mock`. */
const fieldName: Arb<string> = fc
  .oneof(
    fc.constantFrom(
      'model',
      'messages',
      'max_tokens',
      'max_completion_tokens',
      'n',
      'stream',
      'stream_options',
      'temperature',
      'tools',
      'input',
      'dimensions',
      'system',
      'role',
      'content',
      '__proto__',
      'constructor',
      '',
    ),
    fc.string({ maxLength: 12 }),
  )
  .filter((k) => k !== 'mock');

const anyValues = new WeakMap<FuzzContext, Arb<string>>();

/** Any JSON value as text, bad numbers, huge strings and deep nesting included. */
export function anyValue(ctx: FuzzContext): Arb<string> {
  const known = anyValues.get(ctx);
  if (known) return known;
  const { value } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: badNumber, weight: 8 },
      { arbitrary: shortString, weight: 8 },
      { arbitrary: fc.constantFrom('true', 'false', 'null'), weight: 4 },
      { arbitrary: tie('array'), weight: 3 },
      { arbitrary: tie('object'), weight: 3 },
      { arbitrary: hugeString(ctx.hugeBytes), weight: 1 },
      { arbitrary: deepValue(ctx.deepLevels), weight: 1 },
    ),
    array: fc.array(tie('value'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
    object: fc
      .array(fc.tuple(fieldName, tie('value')), { maxLength: 4 })
      .map((es) => `{${es.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  }));
  anyValues.set(ctx, value);
  return value;
}

/** A field's value: usually a plausible one, else a bad number or anything at all. */
const fieldValue = (ctx: FuzzContext, good: Arb<string>): Arb<string> =>
  fc.oneof(
    { arbitrary: good, weight: 12 },
    { arbitrary: badNumber, weight: 1 },
    { arbitrary: anyValue(ctx), weight: 1 },
  );

/** An object's text from optional fields (absent ones left out) plus a few random extras. */
function objectText(ctx: FuzzContext, fields: Record<string, Arb<string>>, required: readonly string[] = []) {
  const entries = Object.entries(fields).map(([k, arb]) =>
    required.includes(k)
      ? fc.option(arb, { freq: 12 }).map((v) => [k, v] as const)
      : fc.option(arb, { freq: 2 }).map((v) => [k, v] as const),
  );
  const extras = fc.array(fc.tuple(fieldName, anyValue(ctx)), { maxLength: 2 });
  return fc
    .tuple(fc.tuple(...entries), extras)
    .map(
      ([known, extra]) =>
        `{${[...known.filter(([, v]) => v !== null), ...extra].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`,
    );
}

// ---- bodies per endpoint ---------------------------------------------------------------------

const models = (family: 'openai' | 'anthropic' | 'embeddings') =>
  fc.oneof(
    {
      arbitrary: fc.constant(family === 'embeddings' ? '"mock/text-embedding-3-small"' : '"mock/echo"'),
      weight: 16,
    },
    {
      arbitrary: fc.constantFrom('"mock/mock-small"', '"nope/gpt"', '"gpt-4o"', '"mock/"', '"/"', '""'),
      weight: 2,
    },
    { arbitrary: fc.integer({ min: 10, max: 400_000 }).map((n) => `"mock/${repeat(n, 'm')}"`), weight: 1 },
    // Around the documented bound (256), and characters no header or log line may carry.
    { arbitrary: fc.integer({ min: 250, max: 262 }).map((n) => `"${repeat(n, 'm')}"`), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '"mock/ec\\u0000ho"',
        '"mock/echo\\r\\nx-evil: 1"',
        '"mock/\\u001b[31m"',
        '"mock/é"',
      ),
      weight: 1,
    },
  );

const text = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('"hello"', '"你好世界"', '"\\ud800"', '"[[[{{{"'),
);

function message(ctx: FuzzContext): Arb<string> {
  const part = fc.oneof(
    fc.constant('{"type":"text","text":"hi"}'),
    fc.constant('{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}'),
    fc.constant('{"type":"tool_result","content":[{"type":"text","text":"r"}]}'),
    anyValue(ctx),
  );
  return fc.oneof(
    { arbitrary: text.map((t) => `{"role":"user","content":${t}}`), weight: 6 },
    {
      arbitrary: objectText(
        ctx,
        {
          role: fieldValue(ctx, fc.constantFrom('"user"', '"assistant"', '"system"', '"tool"', '""')),
          content: fieldValue(
            ctx,
            fc.oneof(
              text,
              fc.array(part, { maxLength: 3 }).map((p) => `[${p.join(',')}]`),
            ),
          ),
          name: fieldValue(ctx, text),
        },
        ['role', 'content'],
      ),
      weight: 3,
    },
    { arbitrary: anyValue(ctx), weight: 1 },
  );
}

const messageList = (ctx: FuzzContext) =>
  fieldValue(
    ctx,
    fc.array(message(ctx), { minLength: 1, maxLength: 3 }).map((ms) => `[${ms.join(',')}]`),
  );

const tokenCap = (ctx: FuzzContext) => fieldValue(ctx, fc.integer({ min: 1, max: 64 }).map(String));

function chatBody(ctx: FuzzContext): Arb<string> {
  return objectText(
    ctx,
    {
      model: fieldValue(ctx, models('openai')),
      messages: messageList(ctx),
      max_tokens: tokenCap(ctx),
      max_completion_tokens: tokenCap(ctx),
      n: fieldValue(ctx, fc.integer({ min: 1, max: 3 }).map(String)),
      temperature: fieldValue(ctx, fc.constantFrom('0', '0.5', '2')),
      stream: fieldValue(ctx, fc.constantFrom('true', 'false')),
      stream_options: fieldValue(ctx, fc.constantFrom('{"include_usage":true}', '{"include_usage":false}')),
      tools: fieldValue(ctx, fc.constant('[{"type":"function","function":{"name":"f","parameters":{}}}]')),
      top_p: fieldValue(ctx, fc.constant('1')),
      user: fieldValue(ctx, text),
    },
    ['model', 'messages'],
  );
}

function messagesBody(ctx: FuzzContext): Arb<string> {
  return objectText(
    ctx,
    {
      model: fieldValue(ctx, models('anthropic')),
      messages: messageList(ctx),
      max_tokens: tokenCap(ctx),
      max_completion_tokens: tokenCap(ctx),
      n: fieldValue(ctx, fc.integer({ min: 1, max: 3 }).map(String)),
      system: fieldValue(ctx, text),
      temperature: fieldValue(ctx, fc.constantFrom('0', '0.5', '1')),
      stream: fieldValue(ctx, fc.constantFrom('true', 'false')),
      tools: fieldValue(ctx, fc.constant('[{"name":"f","input_schema":{"type":"object"}}]')),
    },
    ['model', 'messages', 'max_tokens'],
  );
}

function embeddingsBody(ctx: FuzzContext): Arb<string> {
  return objectText(
    ctx,
    {
      model: fieldValue(ctx, models('embeddings')),
      input: fieldValue(
        ctx,
        fc.oneof(text, fc.constant('["a","b"]'), fc.constant('[1,2,3]'), fc.constant('[[1],[2]]')),
      ),
      dimensions: fieldValue(ctx, fc.integer({ min: 1, max: 64 }).map(String)),
      encoding_format: fieldValue(ctx, fc.constantFrom('"float"', '"base64"')),
    },
    ['model', 'input'],
  );
}

/** Whole-body damage on top of a generated body: cut, garbage, bad UTF-8, or something else entirely. */
function damaged(ctx: FuzzContext, body: Arb<string>): Arb<string> {
  return fc.oneof(
    { arbitrary: body, weight: 30 },
    { arbitrary: fc.tuple(body, fc.nat()).map(([b, n]) => b.slice(0, n % (b.length + 1))), weight: 1 },
    {
      arbitrary: fc
        .tuple(body, fc.nat(), fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 3 }))
        .map(([b, n, g]) => insertAt(b, n, g.replaceAll('\u0000', ' '))),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(
          body,
          fc.nat(),
          fc.constantFrom([0xff], [0xfe, 0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82]),
        )
        .map(([b, n, bad]) => insertAt(b, n, bytes(bad))),
      weight: 1,
    },
    { arbitrary: anyValue(ctx), weight: 1 },
    { arbitrary: fc.constantFrom('', ' ', 'null', '[]', '"x"', '\ufeff{}', '{"model":'), weight: 1 },
  );
}

/** Inserts `what` at a position that does not split a template directive. */
function insertAt(template: string, n: number, what: string): string {
  const safe: number[] = [];
  let inside = false;
  for (let i = 0; i <= template.length; i++) {
    if (!inside) safe.push(i);
    if (template[i] === '\u0000') inside = !inside;
  }
  const at = safe[n % safe.length] ?? 0;
  return template.slice(0, at) + what + template.slice(at);
}

// ---- headers ---------------------------------------------------------------------------------

const printable: Arb<string> = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 48,
});

const contentType: Arb<string | null> = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/vnd.api+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=zz',
      'application/jsonx',
      '',
    ),
    weight: 2,
  },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: printable, weight: 1 },
);

function bearer(ctx: FuzzContext): Arb<string | null> {
  const { plain, limited, cached } = ctx.keys;
  return fc.oneof(
    { arbitrary: fc.constantFrom(`Bearer ${plain}`, `Bearer ${limited}`, `Bearer ${cached}`), weight: 16 },
    {
      arbitrary: fc.constantFrom(
        'Bearer',
        'Bearer ',
        `bearer ${plain}`,
        `Bearer  ${plain}`,
        `Bearer ${plain}x`,
        `Bearer ${plain.slice(0, -1)}`,
        `Basic ${plain}`,
        `Bearer ${plain},Bearer ${plain}`,
      ),
      weight: 2,
    },
    { arbitrary: printable.map((s) => `Bearer ${s}`), weight: 2 },
    { arbitrary: fc.constant(null), weight: 1 },
  );
}

const flatMetadata = fc.dictionary(
  fc.string({ unit: 'grapheme-ascii', maxLength: 6 }),
  fc.oneof(fc.string({ unit: 'grapheme-ascii', maxLength: 8 }), fc.integer(), fc.boolean()),
  { maxKeys: 6 },
);

const someControlHeaders: Arb<Record<string, string>> = fc.record(
  {
    'cf-aig-metadata': fc.oneof(
      flatMetadata.map((m) => JSON.stringify(m)),
      fc.constantFrom('{"a":1e309}', '{"a":-1e309}', '{"a":{"b":1}}', '[1]', 'null', '{', '{"a":"x"}'),
      fc.integer({ min: 100, max: 8_000 }).map((n) => `{"a":"${'x'.repeat(n)}"}`),
      fc.integer({ min: 10, max: 2_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
      printable,
    ),
    'cf-aig-cache-ttl': fc.oneof(
      fc.constantFrom('60', '-1', '0', '1e309', 'NaN', '1.5', 'abc', ''),
      printable,
    ),
    'cf-aig-skip-cache': fc.constantFrom('true', 'false', 'yes', '1', ''),
    'cf-aig-cache-key': fc.oneof(
      printable,
      fc.integer({ min: 100, max: 6_000 }).map((n) => 'k'.repeat(n)),
    ),
    'cf-aig-request-timeout': fc.oneof(
      fc.constantFrom('0', '-1', '1e309', 'NaN', '1.5', '600001', 'abc', ''),
      fc.integer({ min: 10_000, max: 600_000 }).map(String),
    ),
    'cf-aig-max-attempts': fc.oneof(fc.constantFrom('0', '-1', '1', '3', '99', '1e309', 'x'), printable),
    'x-edgeway-cache': fc.constantFrom('no-cache', 'no-store', 'NO-STORE', 'bogus', ''),
    'x-edgeway-debug': printable,
    'anthropic-version': fc.constantFrom('2023-06-01', '', 'x'),
    'cf-connecting-ip': fc.constantFrom('10.0.0.1', '::1', 'not-an-ip', '999.1.1.1'),
  },
  { requiredKeys: [] },
);

/** Usually none, so that most cases get past header checks to the body. */
const controlHeaders: Arb<Record<string, string>> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 3 },
  { arbitrary: someControlHeaders, weight: 1 },
);

/** Drops header values fetch would refuse to send (they never reach a server). */
function headers(entries: Record<string, string | null | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(entries)) if (typeof v === 'string') out[k] = v;
  return out;
}

// ---- cases -----------------------------------------------------------------------------------

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;

function v1Case(ctx: FuzzContext, family: 'chat' | 'embeddings' | 'messages'): Arb<FuzzCase> {
  const path = { chat: '/v1/chat/completions', embeddings: '/v1/embeddings', messages: '/v1/messages' }[
    family
  ];
  const body = { chat: chatBody, embeddings: embeddingsBody, messages: messagesBody }[family](ctx);
  return fc
    .record({
      method: fc.oneof(
        { arbitrary: fc.constant('POST'), weight: 20 },
        { arbitrary: fc.constantFrom(...METHODS), weight: 1 },
      ),
      body: damaged(ctx, body),
      type: contentType,
      auth: bearer(ctx),
      apiKey: fc.option(fc.constantFrom(ctx.keys.plain, 'sk-nope', ''), { freq: 8 }),
      controls: controlHeaders,
      chunked: fc.boolean(),
    })
    .map(({ method, body, type, auth, apiKey, controls, chunked }) => ({
      family,
      method,
      path,
      headers: headers({
        ...controls,
        'content-type': type,
        authorization: auth,
        ...(family === 'messages' && apiKey !== null ? { 'x-api-key': apiKey } : {}),
      }),
      body: method === 'GET' || method === 'HEAD' ? null : body,
      chunked,
    }));
}

function modelsCase(ctx: FuzzContext): Arb<FuzzCase> {
  return fc
    .record({
      method: fc.oneof(
        { arbitrary: fc.constant('GET'), weight: 6 },
        { arbitrary: fc.constantFrom(...METHODS), weight: 1 },
      ),
      auth: bearer(ctx),
      controls: controlHeaders,
      query: fc.constantFrom('', '?limit=1e309', '?x=%zz', `?${'a'.repeat(3000)}=1`),
    })
    .map(({ method, auth, controls, query }) => ({
      family: 'models' as const,
      method,
      path: `/v1/models${query}`,
      headers: headers({ ...controls, authorization: auth }),
      body: null,
      chunked: false,
    }));
}

function adminCase(ctx: FuzzContext): Arb<FuzzCase> {
  const t = ctx.victimTenantId;
  const k = ctx.victimKeyId;
  const limits = objectText(ctx, {
    rpm: fieldValue(ctx, fc.constant('100')),
    tpm: fieldValue(ctx, fc.constant('100000')),
    concurrent: fieldValue(ctx, fc.constant('5')),
    max_tokens: fieldValue(ctx, fc.constant('1000')),
  });
  const window = objectText(ctx, {
    day: badNumber,
    month: fieldValue(ctx, fc.constant('10')),
    total: badNumber,
  });
  const budgets = objectText(ctx, { tokens: window, usd: window });
  const tenantBody = objectText(ctx, { name: fieldValue(ctx, text), limits, budgets }, ['name']);
  const keyBody = objectText(
    ctx,
    {
      tenant_id: fieldValue(ctx, fc.constantFrom(JSON.stringify(t), '"ten_nope"')),
      name: fieldValue(ctx, text),
      models: fieldValue(ctx, fc.constant('["mock/echo"]')),
      limits,
      budgets,
      expires_at: fieldValue(ctx, fc.constantFrom('4102444800000', '0')),
      log_payload: fieldValue(ctx, fc.constant('true')),
      cache: fieldValue(ctx, fc.constant('{"exact":true,"ttl_seconds":60}')),
    },
    ['tenant_id'],
  );
  const target = fc.oneof(
    fc.record({ method: fc.constant('POST'), path: fc.constant('/admin/tenants'), body: tenantBody }),
    fc.record({ method: fc.constant('PATCH'), path: fc.constant(`/admin/tenants/${t}`), body: tenantBody }),
    fc.record({ method: fc.constant('POST'), path: fc.constant('/admin/keys'), body: keyBody }),
    fc.record({ method: fc.constant('PATCH'), path: fc.constant(`/admin/keys/${k}`), body: keyBody }),
    fc.record({
      method: fc.constant('POST'),
      path: fc.constant(`/admin/keys/${k}/rotate`),
      body: fc.option(objectText(ctx, { grace_seconds: badNumber }), { freq: 3 }).map((b) => b ?? ''),
    }),
    fc.record({
      method: fc.constantFrom('PUT', 'DELETE'),
      path: fc.constantFrom('/admin/pricing/mock/echo', '/admin/pricing/nope/x', '/admin/pricing/'),
      body: objectText(ctx, { input: badNumber, output: badNumber, cached: badNumber }),
    }),
    fc.record({
      method: fc.constant('GET'),
      path: fc.constantFrom(
        '/admin/tenants?limit=1e309',
        '/admin/tenants?cursor=%zz',
        '/admin/keys?tenant_id=',
        `/admin/keys?tenant_id=${t}&limit=-1`,
        '/admin/logs?from=notatime&limit=1.5',
        '/admin/logs?status=999&cursor=eyJ4IjoxfQ',
        '/admin/usage?from=2026-13-45&group_by=nope',
        `/admin/limits/keys/${k}`,
        '/admin/limits/tenants/ten_nope',
        '/admin/openapi.json',
        '/admin/nope',
      ),
      body: fc.constant(''),
    }),
    fc.record({
      method: fc.constantFrom(...METHODS),
      path: fc.constantFrom('/admin/tenants', `/admin/keys/${k}`, '/admin', '/admin/'),
      body: anyValue(ctx),
    }),
  );
  return fc
    .record({
      target,
      rightToken: fc.oneof(
        { arbitrary: fc.constant(true), weight: 9 },
        { arbitrary: fc.constant(false), weight: 1 },
      ),
      badToken: fc.oneof(printable, fc.constantFrom('', `${ctx.adminToken}x`, ctx.adminToken.toUpperCase())),
      type: contentType,
      damage: fc.boolean(),
      chunked: fc.boolean(),
      from: fc.integer({ min: 1, max: 250 }),
    })
    .chain((r) =>
      (r.damage ? damaged(ctx, fc.constant(r.target.body)) : fc.constant(r.target.body)).map((body) => ({
        family: 'admin' as const,
        method: r.target.method,
        path: r.target.path,
        headers: headers({
          authorization: r.rightToken ? `Bearer ${ctx.adminToken}` : `Bearer ${r.badToken}`,
          'cf-connecting-ip': r.rightToken ? GOOD_ADMIN_ADDRESS : `10.66.0.${r.from}`,
          'content-type': r.target.body === '' ? null : r.type,
        }),
        body: r.target.method === 'GET' || r.target.method === 'HEAD' || body === '' ? null : body,
        chunked: r.chunked,
      })),
    );
}

function dashboardCase(ctx: FuzzContext): Arb<FuzzCase> {
  const t = ctx.victimTenantId;
  const k = ctx.victimKeyId;
  const formText = fc.oneof(
    { arbitrary: fc.string({ maxLength: 20 }), weight: 4 },
    { arbitrary: badNumber, weight: 3 },
    { arbitrary: fc.integer({ min: 100, max: 100_000 }).map((n) => 'x'.repeat(n)), weight: 1 },
  );
  const field = fc.constantFrom(
    'name',
    'models',
    'limits.rpm',
    'limits.tpm',
    'limits.concurrent',
    'limits.max_tokens',
    'budgets.tokens.day',
    'budgets.usd.month',
    'expires_at',
    'log_payload',
    'grace_seconds',
    'token',
    'next',
    'tenant_id',
    'from',
    'to',
  );
  const path = fc.constantFrom(
    '/dashboard/login',
    '/dashboard/tenants',
    `/dashboard/tenants/${t}/keys`,
    `/dashboard/tenants/${t}/disable`,
    `/dashboard/tenants/${t}/enable`,
    `/dashboard/keys/${k}`,
    `/dashboard/keys/${k}/rotate`,
    `/dashboard/keys/${k}/revoke`,
    '/dashboard/keys/key_nope',
    '/dashboard/logs',
    '/dashboard/usage',
    '/dashboard/nope',
  );
  return fc
    .record({
      method: fc.oneof(
        { arbitrary: fc.constant('POST'), weight: 6 },
        { arbitrary: fc.constantFrom(...METHODS), weight: 1 },
      ),
      path,
      fields: fc.array(fc.tuple(field, formText), { maxLength: 6 }),
      csrf: fc.constantFrom('right', 'right', 'right', 'right', 'wrong', 'none'),
      session: fc.oneof(
        { arbitrary: fc.constant(true), weight: 5 },
        { arbitrary: fc.constant(false), weight: 1 },
      ),
      origin: fc.constantFrom('right', 'right', 'right', 'right', 'right', 'right', 'foreign', 'none'),
      encoding: fc.constantFrom(
        'form',
        'form',
        'form',
        'multipart',
        'broken-multipart',
        'json',
        'garbage',
        'none',
      ),
      garbage: fc.constantFrom('%zz=%', 'a=%ff%fe', '&&&==', bytes([0xff, 0xfe, 0x3d])),
      query: fc.constantFrom(
        '',
        '?notice=x',
        '?from=1e309&tenant_id=%zz',
        `?next=${encodeURIComponent('//evil')}`,
      ),
      chunked: fc.boolean(),
    })
    .map((r) => {
      const form = new URLSearchParams(r.fields);
      if (r.csrf !== 'none')
        form.set('_csrf', r.csrf === 'right' && ctx.dashboard ? ctx.dashboard.csrf : 'nope');
      const boundary = 'fuzzboundary';
      const multipart = `${[...form].map(([n, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join('')}--${boundary}--\r\n`;
      const [type, body] = {
        form: ['application/x-www-form-urlencoded', form.toString()],
        multipart: [`multipart/form-data; boundary=${boundary}`, multipart],
        'broken-multipart': [`multipart/form-data; boundary=${boundary}`, form.toString()],
        json: ['application/json', JSON.stringify(Object.fromEntries(form))],
        garbage: ['application/x-www-form-urlencoded', r.garbage],
        none: [null, form.toString()],
      }[r.encoding] as [string | null, string];
      return {
        family: 'dashboard' as const,
        method: r.method,
        path: r.method === 'GET' ? `${r.path}${r.query}` : r.path,
        headers: headers({
          'content-type': type,
          cookie: r.session && ctx.dashboard ? ctx.dashboard.cookie : undefined,
          origin:
            r.origin === 'right' ? ctx.origin : r.origin === 'foreign' ? 'https://evil.example' : undefined,
        }),
        body: r.method === 'GET' || r.method === 'HEAD' ? null : body,
        chunked: r.chunked,
      };
    });
}

function otherCase(ctx: FuzzContext): Arb<FuzzCase> {
  return fc
    .record({
      method: fc.constantFrom(...METHODS),
      path: fc.oneof(
        fc.constantFrom(
          '/v1/chat/completions/x',
          '/v1/messagesx',
          '/v1/',
          '/v2/chat/completions',
          '/healthz',
          '/healthz?deep=1',
          '/',
          '//v1/models',
          '/v1/../admin/tenants',
          '/%ff',
        ),
        printable.map((s) => `/${encodeURIComponent(s)}`),
      ),
      auth: bearer(ctx),
      body: fc.option(anyValue(ctx), { freq: 2 }),
    })
    .map(({ method, path, auth, body }) => ({
      family: 'other' as const,
      method,
      path,
      headers: headers({ authorization: auth, 'content-type': 'application/json' }),
      body: method === 'GET' || method === 'HEAD' ? null : body,
      chunked: false,
    }));
}

/** Cases for one family, or for all of them weighted roughly by how much surface each has. */
export function fuzzCase(ctx: FuzzContext, family?: Family): Arb<FuzzCase> {
  const byFamily: Record<Family, () => Arb<FuzzCase>> = {
    chat: () => v1Case(ctx, 'chat'),
    embeddings: () => v1Case(ctx, 'embeddings'),
    messages: () => v1Case(ctx, 'messages'),
    models: () => modelsCase(ctx),
    admin: () => adminCase(ctx),
    dashboard: () => dashboardCase(ctx),
    other: () => otherCase(ctx),
  };
  if (family) return byFamily[family]();
  return fc.oneof(
    { arbitrary: byFamily.chat(), weight: 6 },
    { arbitrary: byFamily.messages(), weight: 4 },
    { arbitrary: byFamily.embeddings(), weight: 3 },
    { arbitrary: byFamily.models(), weight: 1 },
    { arbitrary: byFamily.admin(), weight: 4 },
    { arbitrary: byFamily.dashboard(), weight: 2 },
    { arbitrary: byFamily.other(), weight: 1 },
  );
}
