/**
 * A request's cache writes and reasoning tokens, from the log event through the real queue consumer to
 * the admin logs API and the dashboard's request page, beside the cached tokens.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../admin-helpers';
import { Browser } from '../dashboard-helpers';
import { deliver, LOG_QUEUE, logEvent } from '../log-fixtures';

const cachedTurn = logEvent({
  tenantId: 'ten_tokens',
  model: 'anthropic/claude-sonnet-4-5',
  inputTokens: 13050,
  outputTokens: 1400,
  cachedTokens: 10000,
  cacheWriteTokens: 3000,
  cacheWrite1hTokens: 2000,
  reasoningTokens: 900,
});

let b: Browser;
beforeAll(async () => {
  await deliver(LOG_QUEUE, [cachedTurn]);
  b = new Browser();
  await b.signIn();
});

describe('cache writes and reasoning tokens in the logs', () => {
  it('are in the admin API’s log entry', async () => {
    const r = await admin('GET', `/logs/${cachedTurn.requestId}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      input_tokens: 13050,
      output_tokens: 1400,
      cached_tokens: 10000,
      cache_write_tokens: 3000,
      cache_write_1h_tokens: 2000,
      reasoning_tokens: 900,
    });
  });

  it('are on the request page next to the cached tokens', async () => {
    const html = await b.page(`/dashboard/logs/${cachedTurn.requestId}`);
    expect(html).toContain('<dt>Tokens in / out / cached</dt><dd>13,050 / 1,400 / 10,000</dd>');
    expect(html).toContain('<dt>Cache writes (of which 1 h)</dt><dd>3,000 (2,000)</dd>');
    expect(html).toContain('<dt>Reasoning tokens</dt><dd>900</dd>');
  });
});
