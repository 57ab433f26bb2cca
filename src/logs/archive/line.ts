/**
 * One archive line (pure): a log row as the admin API's LogDetail JSON, built
 * by hand rather than parsed and re-serialised. The consumer writes one per
 * request, so this is the archive's per-event cost: the JSON columns (tries,
 * guardrails, metadata) are already JSON text made by rows.ts and are spliced
 * in as they are (tags and mcp too); 0/1 columns become booleans. `id` comes first and `time`
 * second, which the export's range filter relies on (reader.ts). A
 * test holds it equal to the schema's reading of the same row (detailOfRow).
 */
import type { LogRow } from '../rows';

const str = (v: unknown) => (v === null || v === undefined ? 'null' : JSON.stringify(String(v)));
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : 'null');
const bool = (v: unknown) => (v === 1 ? 'true' : 'false');
const boolOrNull = (v: unknown) => (v === null || v === undefined ? 'null' : bool(v));
const json = (v: unknown, empty: string) => (typeof v === 'string' && v !== '' ? v : empty);

export function archiveLine(row: LogRow): string {
  const payload = row.request_payload !== null || row.response_payload !== null;
  return (
    `{"id":${str(row.id)},"time":${num(row.time)},"tenant_id":${str(row.tenant_id)},"key_id":${str(row.key_id)},` +
    `"endpoint":${str(row.endpoint)},"provider":${str(row.provider)},"model":${str(row.model)},` +
    `"status":${num(row.status)},"error_source":${str(row.error_source)},"error_code":${str(row.error_code)},` +
    `"cache":${str(row.cache)},"stream":${bool(row.stream)},"stream_completed":${boolOrNull(row.stream_completed)},` +
    `"input_tokens":${num(row.input_tokens)},"output_tokens":${num(row.output_tokens)},` +
    `"cached_tokens":${num(row.cached_tokens)},"cache_write_tokens":${num(row.cache_write_tokens)},` +
    `"cache_write_1h_tokens":${num(row.cache_write_1h_tokens)},"reasoning_tokens":${num(row.reasoning_tokens)},` +
    `"cost_usd":${num(row.cost_usd)},"saved_usd":${num(row.saved_usd)},` +
    `"latency_ms":${num(row.latency_ms)},"ttft_ms":${num(row.ttft_ms)},"attempts":${num(row.attempts)},` +
    `"route":${str(row.route)},"tries":${json(row.tries, '[]')},"guardrails":${json(row.guardrails, '[]')},` +
    `"metadata":${json(row.metadata, 'null')},"end_user":${str(row.end_user)},"tags":${json(row.tags, 'null')},` +
    `"mcp":${json(row.mcp, 'null')},` +
    `"has_payload":${payload ? 'true' : 'false'},` +
    `"payload_truncated":${bool(row.payload_truncated)},` +
    `"request_payload":${str(row.request_payload)},"response_payload":${str(row.response_payload)}}`
  );
}
