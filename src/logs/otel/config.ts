/**
 * Where the log pipeline exports spans and metrics (pure): the OpenTelemetry
 * exporter settings read from the Worker's vars and secrets, with the names and
 * meanings the OpenTelemetry SDKs give them.
 *   OTEL_EXPORTER_OTLP_TRACES_ENDPOINT   the full traces URL, used as is;
 *   OTEL_EXPORTER_OTLP_METRICS_ENDPOINT  the full metrics URL, used as is;
 *   OTEL_EXPORTER_OTLP_ENDPOINT          a base URL, to which `/v1/traces` and `/v1/metrics` are appended;
 *   OTEL_EXPORTER_OTLP_HEADERS           `k=v,k2=v2`, values percent-decoded (a secret: it
 *                                         usually holds the collector's API key);
 *   OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER  `none` turns that signal off (default `otlp`);
 *   OTEL_SERVICE_NAME                    the resource's service.name (default `edgeway`).
 * A signal without an endpoint is not exported; with neither, nothing is. A
 * malformed URL turns its signal off (reported once per isolate); a malformed
 * header entry is skipped.
 */

export interface OtelVars {
  readonly OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  readonly OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  readonly OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?: string;
  readonly OTEL_EXPORTER_OTLP_HEADERS?: string;
  readonly OTEL_TRACES_EXPORTER?: string;
  readonly OTEL_METRICS_EXPORTER?: string;
  readonly OTEL_SERVICE_NAME?: string;
}

export interface OtelConfig {
  /** Where the ExportTraceServiceRequest is POSTed; null: spans are not exported. */
  readonly tracesUrl: string | null;
  /** Where the ExportMetricsServiceRequest is POSTed; null: metrics are not exported. */
  readonly metricsUrl: string | null;
  /** Sent with every export, after content-type (which they cannot replace). */
  readonly headers: Readonly<Record<string, string>>;
  readonly serviceName: string;
}

export const DEFAULT_SERVICE_NAME = 'edgeway';

/** Parsed once per isolate and set of values (the queue handler reads them on every batch). */
let memo: { key: string; config: OtelConfig | null } | null = null;

export function otelConfig(vars: OtelVars): OtelConfig | null {
  const key = JSON.stringify([
    vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    vars.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT,
    vars.OTEL_EXPORTER_OTLP_ENDPOINT,
    vars.OTEL_EXPORTER_OTLP_HEADERS,
    vars.OTEL_TRACES_EXPORTER,
    vars.OTEL_METRICS_EXPORTER,
    vars.OTEL_SERVICE_NAME,
  ]);
  if (memo?.key !== key) memo = { key, config: parseConfig(vars) };
  return memo.config;
}

export function parseConfig(vars: OtelVars): OtelConfig | null {
  const base = vars.OTEL_EXPORTER_OTLP_ENDPOINT;
  const tracesUrl = off(vars.OTEL_TRACES_EXPORTER)
    ? null
    : signalUrl(vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, base, 'traces');
  const metricsUrl = off(vars.OTEL_METRICS_EXPORTER)
    ? null
    : signalUrl(vars.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, base, 'metrics');
  if (tracesUrl === null && metricsUrl === null) return null;
  return {
    tracesUrl,
    metricsUrl,
    headers: parseHeaders(vars.OTEL_EXPORTER_OTLP_HEADERS ?? ''),
    serviceName: vars.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME,
  };
}

/** `none` turns a signal off, as OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER do in the SDKs. */
const off = (exporter: string | undefined) => exporter?.trim().toLowerCase() === 'none';

/** The signal's own endpoint as it is, else the base endpoint with `/v1/<signal>` appended. */
function signalUrl(
  own: string | undefined,
  base: string | undefined,
  signal: 'traces' | 'metrics',
): string | null {
  const raw = own?.trim() || base?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // The value may embed credentials: only its length is reported.
    console.error('OpenTelemetry export off: the endpoint is not an http(s) URL', { length: raw.length });
    return null;
  }
  if (own?.trim()) return url.href;
  return `${url.href.replace(/\/+$/, '')}/v1/${signal}`;
}

/** A header name as HTTP allows it (an RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `k=v,k2=v2` (the W3C Baggage form the OpenTelemetry SDKs read): names trimmed, values percent-decoded. */
export function parseHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of raw.split(',')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    const name = entry.slice(0, eq).trim().toLowerCase();
    const value = decode(entry.slice(eq + 1).trim());
    if (!TOKEN.test(name) || value === null || /[\r\n\0]/.test(value)) continue;
    if (name === 'content-type' || name === 'content-length') continue;
    headers[name] = value;
  }
  return headers;
}

function decode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
