/**
 * What the stages learn about one request, filled in as it moves through the
 * pipeline and turned into exactly one LogEvent when it ends (see app.ts).
 */
import type { PayloadCapture } from '../logs/payload';
import type { Usage } from '../sse/observer';

export interface RequestRecord {
  endpoint: string;
  provider: string | null;
  model: string | null;
  stream: boolean;
  cache: 'HIT' | 'SEMANTIC' | 'MISS' | 'BYPASS' | null;
  usage: Usage | null;
  attempts: number;
  ttftMs: number | null;
  streamCompleted: boolean | null;
  /** An error that happened after the response status was sent (stream faults). */
  lateError: string | null;
  metadata: Record<string, string | number | boolean> | null;
  /** Prompt and completion, when the key opts in to payload logging (src/logs/payload.ts). */
  payload: PayloadCapture | null;
  /** Resolves when the response body has been fully delivered (streams). */
  done: Promise<void> | null;
}

export function newRecord(endpoint: string): RequestRecord {
  return {
    endpoint, provider: null, model: null, stream: false, cache: null, usage: null,
    attempts: 0, ttftMs: null, streamCompleted: null, lateError: null, metadata: null, payload: null, done: null,
  };
}
