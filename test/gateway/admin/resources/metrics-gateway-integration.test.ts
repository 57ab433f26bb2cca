/**
 * GET /admin/metrics from requests through the gateway: chat requests (one streamed) and a failed lookup
 * go through /v1, the log consumer rolls them into usage_totals, and a scrape read with a Prometheus
 * text-format parser counts exactly them, with their latency and TTFT histograms.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTenant, v1 } from '../../admin-helpers';
import { chatBody } from '../../helpers';
import { waitForLogs } from '../../log-fixtures';
import { admin } from '../../admin-helpers';
import { type PromScrape, readExposition, series, value } from '../../prometheus-helpers';

let tenant: string;
let scrape: PromScrape;
const ECHO = { model: 'mock/echo', provider: 'mock' };

beforeAll(async () => {
  tenant = (await createTenant('metrics-through-gateway')).id;
  const key = (await createKey(tenant)).key;
  const responses = await Promise.all([
    v1('/chat/completions', key, chatBody('one')),
    v1('/chat/completions', key, chatBody('two')),
    v1('/chat/completions', key, chatBody('three', { stream: true })),
    v1('/chat/completions', key, chatBody('four', { model: 'nosuch/model-x' })),
  ]);
  const ids = await Promise.all(
    responses.map(async (res) => {
      await res.text();
      return res.headers.get('x-edgeway-request-id')!;
    }),
  );
  expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 404]);
  await waitForLogs(ids);
  const res = await admin('GET', `/metrics?tenant_id=${tenant}`);
  expect(res.status).toBe(200);
  scrape = readExposition(res.text);
});

describe('GET /admin/metrics after requests through the gateway', () => {
  it('counts the requests, tokens and cost per model and provider', () => {
    const labels = { tenant, ...ECHO };
    expect(value(scrape, 'edgeway_requests_total', labels)).toBe(3);
    expect(value(scrape, 'edgeway_input_tokens_total', labels)).toBeGreaterThan(0);
    expect(value(scrape, 'edgeway_output_tokens_total', labels)).toBeGreaterThan(0);
    expect(value(scrape, 'edgeway_cost_usd_total', labels)).toBeGreaterThan(0);
    expect(series(scrape, 'edgeway_errors_total', labels).every((s) => s.value === 0)).toBe(true);
  });

  it('has each request in the latency histogram, and the streamed one in the TTFT histogram', () => {
    const labels = { tenant, ...ECHO };
    expect(value(scrape, 'edgeway_request_duration_seconds_count', labels)).toBe(3);
    expect(value(scrape, 'edgeway_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(3);
    expect(value(scrape, 'edgeway_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    expect(value(scrape, 'edgeway_time_to_first_token_seconds_count', labels)).toBe(1);
  });

  it('counts a failed lookup under no model, as a 4xx', () => {
    const none = { tenant, model: '', provider: '' };
    expect(value(scrape, 'edgeway_requests_total', none)).toBe(1);
    expect(value(scrape, 'edgeway_errors_total', { ...none, class: '4xx' })).toBe(1);
    expect(series(scrape, 'edgeway_requests_total').some((s) => s.labels.model === 'nosuch/model-x')).toBe(
      false,
    );
  });
});
