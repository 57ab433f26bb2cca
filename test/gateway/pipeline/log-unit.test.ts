/** Stage 7, log: the one LogEvent built from a closed exchange and the prices, for every way a request can end. */
import { describe, expect, it } from 'vitest';
import { costUsd, priceOf } from '../../../src/core/cost';
import { GatewayError } from '../../../src/core/errors';
import { type Answer, Exchange } from '../../../src/core/exchange';
import { KeyRecord } from '../../../src/core/key-record';
import { LogEvent } from '../../../src/core/log-event';
import { capturePayload } from '../../../src/core/payload';
import { buildLogEvent } from '../../../src/pipeline/log';

const RECEIVED_AT = 1_800_000_000_000;
const STARTED_AT = 1_000;
const principal = KeyRecord.parse({
  id: 'key_1',
  tenantId: 'ten_1',
  status: 'active',
  models: null,
  expiresAt: null,
  logPayload: true,
});
const usage = {
  inputTokens: 120,
  outputTokens: 30,
  cachedTokens: 20,
  cacheWriteTokens: 0,
  cacheWrite1hTokens: 0,
  reasoningTokens: 0,
};
const body = { model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] };

/** An exchange on a clock the test moves; by default authenticated, for mock/echo on the mock provider. */
function exchange() {
  const clock = { now: STARTED_AT };
  const x = new Exchange({
    id: 'req_1',
    path: '/v1/chat/completions',
    receivedAt: RECEIVED_AT,
    startedAt: STARTED_AT,
    waitUntil: () => {},
    clock: () => clock.now,
  });
  x.principal = principal;
  x.metadata = { user: 'u-1', trace: 7, team: 'search' };
  x.endUser = 'u-1';
  x.tags = { team: 'search' };
  x.model = 'mock/echo';
  x.provider = 'mock';
  return { x, clock };
}

const jsonAnswer = (fields: Partial<Answer> = {}): Answer => ({
  usage,
  delivery: { completed: true, deliveredChars: 200 },
  whole: null,
  lateError: null,
  text: null,
  ...fields,
});

/** The event, checked against the queue message schema (which must accept it unchanged). */
function logged(event: LogEvent): LogEvent {
  expect(LogEvent.parse(event)).toEqual(event);
  return event;
}

describe('buildLogEvent', () => {
  it("logs a named route's calls, charged at the price of the model that answered", async () => {
    const { x } = exchange();
    x.model = 'smart';
    x.route = 'smart';
    x.target = 'mock/mock-large';
    x.tries.push(
      { target: 'mock/echo', status: 503, ttfbMs: 12, error: 'api_error' },
      { target: 'mock/mock-large', status: 200, ttfbMs: 30, error: null },
    );
    x.answered(jsonAnswer());
    const event = logged(buildLogEvent(x, await x.close(200, null), {}));
    expect(event).toMatchObject({ model: 'smart', route: 'smart' });
    expect(event.tries.map((t) => t.target)).toEqual(['mock/echo', 'mock/mock-large']);
    expect(event.costUsd).toBe(costUsd(priceOf('mock/mock-large'), usage));
  });

  it('logs cache writes and reasoning tokens, the writes priced by TTL', async () => {
    const { x } = exchange();
    x.model = 'mock/claude-mock';
    const cached = {
      inputTokens: 3100,
      outputTokens: 400,
      cachedTokens: 1000,
      cacheWriteTokens: 2000,
      cacheWrite1hTokens: 500,
      reasoningTokens: 300,
    };
    x.answered(jsonAnswer({ usage: cached }));
    const event = logged(buildLogEvent(x, await x.close(200, null), {}));
    expect(event).toMatchObject({
      inputTokens: 3100,
      outputTokens: 400,
      cachedTokens: 1000,
      cacheWriteTokens: 2000,
      cacheWrite1hTokens: 500,
      reasoningTokens: 300,
    });
    // mock/claude-mock: $3 input, $0.30 cached, $3.75 5-minute writes, $6 1-hour writes, $15 output per 1M tokens.
    const expected = (100 * 3 + 1000 * 0.3 + 1500 * 3.75 + 500 * 6 + 400 * 15) / 1e6;
    expect(event.costUsd).toBeCloseTo(expected, 12);
  });

  it('logs a JSON answer with its tokens, its cost at the table price and the latency to the end', async () => {
    const { x, clock } = exchange();
    x.cache = 'MISS';
    x.attempts = 2;
    x.answered(jsonAnswer());
    clock.now = STARTED_AT + 250;
    const event = logged(buildLogEvent(x, await x.close(200, null), {}));

    // mock/echo: $1 input, $0.5 cached, $2 output per 1M tokens.
    const expected = (100 * 1 + 20 * 0.5 + 30 * 2) / 1e6;
    expect(event.costUsd).toBeCloseTo(expected, 12);
    expect(event.costUsd).toBe(costUsd(priceOf('mock/echo'), usage));
    expect(event).toEqual({
      requestId: 'req_1',
      time: RECEIVED_AT,
      tenantId: 'ten_1',
      keyId: 'key_1',
      endpoint: '/v1/chat/completions',
      provider: 'mock',
      model: 'mock/echo',
      status: 200,
      errorSource: null,
      errorCode: null,
      cache: 'MISS',
      stream: false,
      streamCompleted: null,
      inputTokens: 120,
      outputTokens: 30,
      cachedTokens: 20,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
      costUsd: event.costUsd,
      savedUsd: 0,
      latencyMs: 250,
      ttftMs: null,
      attempts: 2,
      metadata: { user: 'u-1', trace: 7, team: 'search' },
      endUser: 'u-1',
      tags: { team: 'search' },
      mcp: null,
      payload: null,
      route: null,
      tries: [],
      guardrails: [],
    });
  });

  it('prices with the overrides passed in before the table', async () => {
    const { x } = exchange();
    x.answered(jsonAnswer());
    const overrides = {
      'mock/echo': { input: 10, output: 100, cached: 0, cache_write: 10, cache_write_1h: 10 },
    };
    const event = logged(buildLogEvent(x, await x.close(200, null), overrides));
    expect(event.costUsd).toBeCloseTo((100 * 10 + 30 * 100) / 1e6, 12);
  });

  it('charges nothing for a cache HIT and records what it would have cost as saved', async () => {
    for (const status of ['HIT', 'SEMANTIC'] as const) {
      const { x } = exchange();
      x.cache = status;
      x.answered(jsonAnswer({ delivery: null }));
      const event = logged(buildLogEvent(x, await x.close(200, null), {}));
      expect(event).toMatchObject({
        cache: status,
        costUsd: 0,
        inputTokens: 120,
        outputTokens: 30,
        errorSource: null,
      });
      expect(event.savedUsd).toBe(costUsd(priceOf('mock/echo'), usage));
      expect(event.savedUsd).toBeGreaterThan(0);
    }
  });

  it('logs an error before any answer with its source and code, and no tokens or cost', async () => {
    const { x } = exchange();
    const refused = new GatewayError(429, 'Rate limit reached.', { code: 'rate_limit_exceeded' });
    const event = logged(buildLogEvent(x, await x.close(429, refused), {}));
    expect(event).toMatchObject({
      status: 429,
      errorSource: 'gateway',
      errorCode: 'rate_limit_exceeded',
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
      costUsd: 0,
      savedUsd: 0,
      streamCompleted: null,
      tenantId: 'ten_1',
    });
  });

  it("logs a provider error without a code by its type, as the provider's", async () => {
    const { x } = exchange();
    const upstream = new GatewayError(502, 'The provider returned HTTP 500.', { source: 'provider' });
    const event = logged(buildLogEvent(x, await x.close(502, upstream), {}));
    expect(event).toMatchObject({
      status: 502,
      errorSource: 'provider',
      errorCode: 'server_error',
      inputTokens: 0,
      costUsd: 0,
    });
  });

  it('logs a stream cut mid-way as a provider error on a 200, not completed, charged for the usage it brought', async () => {
    const { x, clock } = exchange();
    x.stream = true;
    x.cache = 'MISS';
    x.ttftMs = 40;
    let end!: (a: Answer) => void;
    x.answered(new Promise<Answer>((resolve) => (end = resolve)));
    const closed = x.close(200, null);
    clock.now = STARTED_AT + 900;
    end(
      jsonAnswer({
        usage: {
          inputTokens: 10,
          outputTokens: 4,
          cachedTokens: 0,
          cacheWriteTokens: 0,
          cacheWrite1hTokens: 0,
          reasoningTokens: 0,
        },
        delivery: { completed: false, deliveredChars: 16 },
        lateError: 'stream_interrupted',
      }),
    );
    const event = logged(buildLogEvent(x, await closed, {}));
    expect(event).toMatchObject({
      status: 200,
      stream: true,
      streamCompleted: false,
      errorSource: 'provider',
      errorCode: 'stream_interrupted',
      inputTokens: 10,
      outputTokens: 4,
      ttftMs: 40,
      latencyMs: 900,
    });
    expect(event.costUsd).toBe(
      costUsd(priceOf('mock/echo'), {
        inputTokens: 10,
        outputTokens: 4,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        cacheWrite1hTokens: 0,
        reasoningTokens: 0,
      }),
    );
  });

  it('logs a stream that ended normally as completed, without error', async () => {
    const { x } = exchange();
    x.stream = true;
    x.answered(jsonAnswer({ delivery: { completed: true, deliveredChars: 120 } }));
    const event = logged(buildLogEvent(x, await x.close(200, null), {}));
    expect(event).toMatchObject({ stream: true, streamCompleted: true, errorSource: null, errorCode: null });
  });

  it('carries the payload only when it was captured', async () => {
    const captured = exchange();
    captured.x.payload = capturePayload(principal, new Headers(), body, undefined);
    captured.x.answered(jsonAnswer({ text: '{"answer":"hello"}' }));
    const withPayload = logged(buildLogEvent(captured.x, await captured.x.close(200, null), {}));
    expect(withPayload.payload).toEqual({
      request: JSON.stringify(body),
      response: '{"answer":"hello"}',
      truncated: false,
    });

    const optedOut = exchange();
    optedOut.x.payload = capturePayload(
      principal,
      new Headers({ 'cf-aig-collect-log-payload': 'false' }),
      body,
      undefined,
    );
    expect(optedOut.x.payload).toBeNull();
    optedOut.x.answered(jsonAnswer({ text: '{"answer":"hello"}' }));
    expect(logged(buildLogEvent(optedOut.x, await optedOut.x.close(200, null), {})).payload).toBeNull();
  });

  it('keeps the captured request when the request failed before any answer', async () => {
    const { x } = exchange();
    x.payload = capturePayload(principal, new Headers(), body, undefined);
    const event = logged(
      buildLogEvent(
        x,
        await x.close(
          502,
          new GatewayError(502, 'Upstream unreachable.', {
            source: 'provider',
            code: 'upstream_unreachable',
          }),
        ),
        {},
      ),
    );
    expect(event.payload).toEqual({ request: JSON.stringify(body), response: null, truncated: false });
  });

  it('logs a request that never authenticated with no tenant, key, model or provider', async () => {
    const x = new Exchange({
      id: 'req_anon',
      path: '/v1/messages',
      receivedAt: RECEIVED_AT,
      startedAt: STARTED_AT,
      waitUntil: () => {},
      clock: () => STARTED_AT + 3,
    });
    const event = logged(
      buildLogEvent(
        x,
        await x.close(401, new GatewayError(401, 'Missing API key.', { code: 'missing_api_key' })),
        {},
      ),
    );
    expect(event).toEqual({
      requestId: 'req_anon',
      time: RECEIVED_AT,
      tenantId: null,
      keyId: null,
      endpoint: '/v1/messages',
      provider: null,
      model: null,
      status: 401,
      errorSource: 'gateway',
      errorCode: 'missing_api_key',
      cache: null,
      stream: false,
      streamCompleted: null,
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
      costUsd: 0,
      savedUsd: 0,
      latencyMs: 3,
      ttftMs: null,
      attempts: 0,
      metadata: null,
      endUser: null,
      tags: null,
      mcp: null,
      payload: null,
      route: null,
      tries: [],
      guardrails: [],
    });
  });
});
