/**
 * Exports a consumed log batch to an OpenTelemetry collector: one OTLP/HTTP
 * request (JSON encoding) per signal and batch — an ExportTraceServiceRequest of
 * spans to the traces URL, an ExportMetricsServiceRequest of GenAI metrics
 * (metrics.ts) to the metrics URL — with the configured headers.
 *
 * Retried on its own, never by retrying the queue message: the consumer
 * exports only after the batch's D1 write has succeeded and the batch is
 * acked, so an export failure can neither lose nor repeat the stored log, and
 * a collector that is down never holds up D1 storage. A 429, 502, 503 or 504
 * (or a network failure) is tried again, up to EXPORT_ATTEMPTS times in all,
 * after the collector's Retry-After when it sends one (capped) or a doubling
 * backoff; any other refusal is final. Data still refused after that is
 * dropped and reported in the Worker's error log: telemetry is a copy, the
 * D1 log stays the record.
 */
import type { LogEvent } from '../../core/log-event';
import type { OtelConfig } from './config';
import { metricsRequest } from './metrics';
import { type OtlpSpan, toSpan } from './span';

export const EXPORT_ATTEMPTS = 3;
export const FIRST_BACKOFF_MS = 500;
/** Longest wait honoured from a Retry-After, so one batch cannot hold its consumer for long. */
export const MAX_RETRY_AFTER_MS = 5_000;
const RETRYABLE = new Set([429, 502, 503, 504]);
export const SCOPE = { name: 'edgeway', version: '1' } as const;

export interface ExportPorts {
  readonly fetch: (request: Request) => Promise<Response>;
  readonly sleep?: (ms: number) => Promise<void>;
}

export type PostOutcome =
  | { readonly ok: true; readonly attempts: number }
  | { readonly ok: false; readonly attempts: number; readonly reason: string };

export type ExportOutcome = PostOutcome & { readonly spans: number };
export type MetricsOutcome = PostOutcome & { readonly points: number };

/** The ExportTraceServiceRequest for `events`: one resource, one scope, a span per event. */
export function traceRequest(events: readonly LogEvent[], serviceName: string) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: serviceName } }] },
        scopeSpans: [{ scope: SCOPE, spans: events.map(toSpan) satisfies OtlpSpan[] }],
      },
    ],
  };
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function exportSpans(
  events: readonly LogEvent[],
  config: OtelConfig,
  ports: ExportPorts,
): Promise<ExportOutcome> {
  if (events.length === 0 || config.tracesUrl === null) return { ok: true, spans: 0, attempts: 0 };
  const body = JSON.stringify(traceRequest(events, config.serviceName));
  return { ...(await post(config.tracesUrl, body, config, ports)), spans: events.length };
}

/** The batch's GenAI metrics, consumed at `now` (epoch ms); nothing is sent when it holds no model request. */
export async function exportMetrics(
  events: readonly LogEvent[],
  config: OtelConfig,
  ports: ExportPorts,
  now: number,
): Promise<MetricsOutcome> {
  const request = config.metricsUrl === null ? null : metricsRequest(events, config.serviceName, SCOPE, now);
  if (request === null || config.metricsUrl === null) return { ok: true, points: 0, attempts: 0 };
  const points = request.resourceMetrics[0]!.scopeMetrics[0]!.metrics.reduce(
    (n, m) => n + m.histogram.dataPoints.length,
    0,
  );
  return { ...(await post(config.metricsUrl, JSON.stringify(request), config, ports)), points };
}

/** POSTs one OTLP/JSON body, retrying what the collector says may succeed later. */
async function post(url: string, body: string, config: OtelConfig, ports: ExportPorts): Promise<PostOutcome> {
  const sleep = ports.sleep ?? wait;
  let reason = '';
  for (let attempt = 1; attempt <= EXPORT_ATTEMPTS; attempt++) {
    let delay = FIRST_BACKOFF_MS * 2 ** (attempt - 1);
    try {
      const response = await ports.fetch(
        new Request(url, {
          method: 'POST',
          headers: { ...config.headers, 'content-type': 'application/json' },
          body,
        }),
      );
      // The body (an Export…ServiceResponse, or an error) is not needed: drained so the connection is freed.
      await response.body?.cancel();
      if (response.ok) return { ok: true, attempts: attempt };
      reason = `HTTP ${response.status}`;
      if (!RETRYABLE.has(response.status)) return { ok: false, attempts: attempt, reason };
      delay = retryAfterMs(response.headers.get('retry-after')) ?? delay;
    } catch (err) {
      reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    }
    if (attempt < EXPORT_ATTEMPTS) await sleep(delay);
  }
  return { ok: false, attempts: EXPORT_ATTEMPTS, reason };
}

/** Retry-After in seconds (the form collectors send), capped; null when absent or not a number. */
export function retryAfterMs(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Math.min(Number(header.trim()) * 1000, MAX_RETRY_AFTER_MS);
}
