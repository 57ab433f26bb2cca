/** Builds the one LogEvent of a request from what the stages recorded (pure; prices passed in). */
import type { GatewayError } from '../errors';
import { payloadForLog } from '../logs/payload';
import type { Principal } from './auth';
import { costUsd, priceOf } from './cost';
import type { LogEvent } from './log';
import type { RequestRecord } from './record';
import type { Price } from '../providers/catalog';

export interface LogEventInput {
  readonly requestId: string;
  readonly receivedAt: number;
  readonly latencyMs: number;
  readonly status: number;
  readonly error: GatewayError | null;
  readonly principal: Principal | undefined;
  readonly record: RequestRecord;
  readonly priceOverrides: Readonly<Record<string, Price>>;
}

export function buildLogEvent(input: LogEventInput): LogEvent {
  const { record, error, principal } = input;
  const usage = record.usage;
  // Cache hits spend nothing; what the provider would have charged is recorded as saved.
  const hit = record.cache === 'HIT' || record.cache === 'SEMANTIC';
  const cost = usage && record.model ? costUsd(priceOf(record.model, input.priceOverrides), usage) : 0;
  return {
    requestId: input.requestId,
    time: input.receivedAt,
    tenantId: principal?.tenantId ?? null,
    keyId: principal?.id ?? null,
    endpoint: record.endpoint,
    provider: record.provider,
    model: record.model,
    status: input.status,
    errorSource: error ? error.source : record.lateError ? 'provider' : null,
    errorCode: error ? error.code ?? error.type : record.lateError,
    cache: record.cache,
    stream: record.stream,
    streamCompleted: record.streamCompleted,
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedTokens: usage?.cachedTokens ?? 0,
    costUsd: hit ? 0 : cost,
    savedUsd: hit ? cost : 0,
    latencyMs: input.latencyMs,
    ttftMs: record.ttftMs,
    attempts: record.attempts,
    metadata: record.metadata,
    payload: record.payload ? payloadForLog(record.payload) : null,
  };
}
