/**
 * A consumed log batch as OpenTelemetry GenAI metrics (pure): one OTLP/JSON ExportMetricsServiceRequest
 * of delta histograms, one data point per instrument and attribute set, aggregated over the batch's model
 * requests. Instruments, units and bucket boundaries are those the GenAI semantic conventions advise
 * (open-telemetry/semantic-conventions-genai, docs/gen-ai/gen-ai-metrics.md, status Development):
 *   gen_ai.client.token.usage          {token}  per request and gen_ai.token.type (input, output), billed
 *                                               provider tokens only: a gateway cache hit records none;
 *   gen_ai.client.operation.duration   s        every model request, failed ones with error.type;
 *   gen_ai.server.time_to_first_token  s        successful requests that had a first token, cache hits aside.
 * Attributes are the span's (gen-ai.ts): gen_ai.operation.name, gen_ai.provider.name (and the older
 * gen_ai.system), gen_ai.request.model, gen_ai.response.model, plus the gateway's edgeway.tenant_id. MCP
 * calls are not model operations and are left out. The points' interval runs from the earliest request
 * of the batch to the time it was consumed (delta temporality: each export adds, nothing is cumulative).
 */
import { type LogEvent, MCP_ENDPOINT } from '../../core/log-event';
import { type KeyValue, keyValues, type Plain } from './attributes';
import { genAiModel } from './gen-ai';

export interface Instrument {
  readonly name: string;
  readonly unit: string;
  readonly description: string;
  readonly bounds: readonly number[];
}

export const TOKEN_USAGE: Instrument = {
  name: 'gen_ai.client.token.usage',
  unit: '{token}',
  description: 'Number of input and output tokens used.',
  bounds: [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864],
};

export const OPERATION_DURATION: Instrument = {
  name: 'gen_ai.client.operation.duration',
  unit: 's',
  description: 'GenAI operation duration.',
  bounds: [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92],
};

export const TIME_TO_FIRST_TOKEN: Instrument = {
  name: 'gen_ai.server.time_to_first_token',
  unit: 's',
  description: 'Time to generate first token for successful responses.',
  bounds: [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0],
};

const INSTRUMENTS = [TOKEN_USAGE, OPERATION_DURATION, TIME_TO_FIRST_TOKEN] as const;

/** AGGREGATION_TEMPORALITY_DELTA in the OTLP metrics protocol. */
export const TEMPORALITY_DELTA = 1;

export interface HistogramPoint {
  readonly attributes: readonly KeyValue[];
  readonly startTimeUnixNano: string;
  readonly timeUnixNano: string;
  /** fixed64 values, as decimal strings (the protobuf JSON form). */
  readonly count: string;
  readonly bucketCounts: readonly string[];
  readonly explicitBounds: readonly number[];
  readonly sum: number;
  readonly min: number;
  readonly max: number;
}

interface Accumulator {
  readonly attributes: KeyValue[];
  readonly counts: number[];
  count: number;
  sum: number;
  min: number;
  max: number;
}

/** Each instrument's data points, keyed by their attribute set. */
type Points = Map<Instrument, Map<string, Accumulator>>;

function record(all: Points, instrument: Instrument, attributes: Record<string, Plain>, v: number): void {
  const kvs = keyValues(attributes);
  const key = JSON.stringify(kvs);
  let points = all.get(instrument);
  if (!points) {
    points = new Map();
    all.set(instrument, points);
  }
  let acc = points.get(key);
  if (!acc) {
    acc = {
      attributes: kvs,
      counts: new Array(instrument.bounds.length + 1).fill(0),
      count: 0,
      sum: 0,
      min: v,
      max: v,
    };
    points.set(key, acc);
  }
  // Bucket i holds bounds[i-1] < v <= bounds[i]; the last one everything above the last bound.
  const i = instrument.bounds.findIndex((b) => v <= b);
  acc.counts[i === -1 ? instrument.bounds.length : i]! += 1;
  acc.count += 1;
  acc.sum += v;
  acc.min = Math.min(acc.min, v);
  acc.max = Math.max(acc.max, v);
}

function observe(event: LogEvent, points: Points): void {
  const m = genAiModel(event);
  const base: Record<string, Plain> = {
    'gen_ai.operation.name': m.operation,
    'gen_ai.provider.name': m.provider,
    'gen_ai.system': m.provider,
    'gen_ai.request.model': m.requestModel,
    'gen_ai.response.model': m.responseModel,
    'edgeway.tenant_id': event.tenantId,
  };
  const failed = event.status >= 400 || event.errorCode !== null;
  const hit = event.cache === 'HIT' || event.cache === 'SEMANTIC';
  const errorType = event.errorCode ?? (event.status >= 400 ? String(event.status) : null);
  record(points, OPERATION_DURATION, { ...base, 'error.type': errorType }, event.latencyMs / 1000);
  if (hit) return;
  if (event.inputTokens > 0)
    record(points, TOKEN_USAGE, { ...base, 'gen_ai.token.type': 'input' }, event.inputTokens);
  if (event.outputTokens > 0)
    record(points, TOKEN_USAGE, { ...base, 'gen_ai.token.type': 'output' }, event.outputTokens);
  if (!failed && event.ttftMs !== null) record(points, TIME_TO_FIRST_TOKEN, base, event.ttftMs / 1000);
}

const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

/**
 * The ExportMetricsServiceRequest for `events` consumed at `now` (epoch ms): one resource, one scope, the
 * instruments that got at least one value; null when none did (nothing to send).
 */
export function metricsRequest(
  events: readonly LogEvent[],
  serviceName: string,
  scope: { name: string; version: string },
  now: number,
) {
  const models = events.filter((e) => e.endpoint !== MCP_ENDPOINT);
  if (models.length === 0) return null;
  const points: Points = new Map();
  for (const event of models) observe(event, points);
  const start = nanos(models.reduce((earliest, e) => Math.min(earliest, e.time), now));
  const time = nanos(now);
  const metrics = INSTRUMENTS.flatMap((i) => {
    const recorded = points.get(i);
    return recorded ? [{ instrument: i, recorded }] : [];
  }).map(({ instrument: i, recorded }) => ({
    name: i.name,
    unit: i.unit,
    description: i.description,
    histogram: {
      aggregationTemporality: TEMPORALITY_DELTA,
      dataPoints: [...recorded.values()].map(
        (acc): HistogramPoint => ({
          attributes: acc.attributes,
          startTimeUnixNano: start,
          timeUnixNano: time,
          count: String(acc.count),
          bucketCounts: acc.counts.map(String),
          explicitBounds: i.bounds,
          sum: acc.sum,
          min: acc.min,
          max: acc.max,
        }),
      ),
    },
  }));
  return {
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: serviceName } }] },
        scopeMetrics: [{ scope, metrics }],
      },
    ],
  };
}
