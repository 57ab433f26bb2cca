/**
 * One request, one exchange: what the stages learn about a /v1 request, what
 * must happen exactly once when it ends, and its one exit.
 *
 * A stage that takes something that must be given back (the limits
 * reservation, the cache lease, the upstream connection) registers the
 * give-back with `defer` at the moment it takes it. The exit,
 * `close`, runs once however the request ended — refused, answered from cache,
 * failed upstream before the first byte, answered as JSON, streamed to the end,
 * cut mid-stream, abandoned by the client, or broken by an exception in our own
 * code: it waits for the answer to finish, then runs every registered step
 * exactly once with the same `Ending`, and resolves only when they are done, so
 * the log is written from the final state. No branch calls a cleanup itself;
 * a new step (a fallback attempt, a guardrail verdict) registers its own.
 */
import type { LogGuardrail, LogTry } from './log-event';
import type { ClientFormat } from './endpoints';
import type { GatewayError } from './errors';
import type { StreamEnd } from './limiter';
import type { PayloadCapture } from './payload';
import type { Principal } from './principal';
import type { Usage } from './usage';

export type CacheStatus = 'HIT' | 'SEMANTIC' | 'MISS' | 'BYPASS';
/** The late error of a stream whose client went away: the client's doing, not the provider's. */
export const CLIENT_DISCONNECTED = 'client_disconnected';
export type Metadata = Record<string, string | number | boolean>;

/** How the request was answered, reported once by the stage that answered it. */
export interface Answer {
  /** Usage as the provider (or the cache entry) reported it; null when it reported none. */
  readonly usage: Usage | null;
  /**
   * How delivery of an upstream answer ended: a stream's end, or a JSON body's
   * size (completed). Null for a cache hit, which delivers nothing new.
   */
  readonly delivery: StreamEnd | null;
  /** The complete 2xx answer as one JSON body, when the cache is to keep it. */
  readonly whole: { readonly format: ClientFormat; readonly body: Record<string, unknown> } | null;
  /** A fault after the status line was sent (stream cut, upstream error event, client gone). */
  readonly lateError: string | null;
  /** The response text for payload logging; null when not captured. */
  readonly text: string | null;
}

export interface Ending {
  readonly status: number;
  /** The error the request ended in; null when it was answered. */
  readonly error: GatewayError | null;
  /** Null when the request ended before (or instead of) an answer. */
  readonly answer: Answer | null;
  /** From arrival to the end of the answer (the last byte of a stream), ms. */
  readonly latencyMs: number;
}

export type Step = (ending: Ending) => unknown;

export interface ExchangeInit {
  readonly id: string;
  /** The request path (the log's endpoint). */
  readonly path: string;
  /** Epoch ms at arrival. */
  readonly receivedAt: number;
  /** performance.now() at arrival. */
  readonly startedAt: number;
  /** Keeps work alive after the response (ExecutionContext.waitUntil). */
  readonly waitUntil: (work: Promise<unknown>) => void;
  readonly clock?: () => number;
}

export class Exchange {
  readonly id: string;
  readonly path: string;
  readonly receivedAt: number;
  readonly startedAt: number;

  // What the stages learn, each written by the stage that learns it (src/pipeline/proxy.ts).
  principal: Principal | null = null;
  metadata: Metadata | null = null;
  /** The tenant's end user the request is for (src/limits/end-user.ts); null when it names none. */
  endUser: string | null = null;
  /** The cf-aig-metadata values of the tenant's tag keys (TenantScopes.tag_keys and its tag rules' keys). */
  tags: Readonly<Record<string, string>> | null = null;
  model: string | null = null;
  stream = false;
  provider: string | null = null;
  payload: PayloadCapture | null = null;
  cache: CacheStatus | null = null;
  attempts = 0;
  /** The named route called (`model` then holds its name); null for a `provider/model`. */
  route: string | null = null;
  /** The `provider/model` that answered (or was last tried): what is priced and charged. */
  target: string | null = null;
  /** Every upstream call, in order. */
  readonly tries: LogTry[] = [];
  /** What the guardrails found and did, request side first (src/pipeline/guard.ts). */
  readonly guardrails: LogGuardrail[] = [];
  /** Removes what the guardrails detect from logged payloads, whatever their action; null when none is on. */
  scrubPayload: ((text: string) => string) | null = null;
  /** Time spent waiting on upstreams, excluded from x-edgeway-overhead-ms. */
  upstreamMs = 0;
  ttftMs: number | null = null;

  readonly #waitUntil: (work: Promise<unknown>) => void;
  readonly #clock: () => number;
  readonly #steps: Step[] = [];
  #answer: Answer | Promise<Answer> | null = null;
  #ending: Ending | null = null;
  #closed: Promise<Ending> | null = null;

  constructor(init: ExchangeInit) {
    this.id = init.id;
    this.path = init.path;
    this.receivedAt = init.receivedAt;
    this.startedAt = init.startedAt;
    this.#waitUntil = init.waitUntil;
    this.#clock = init.clock ?? (() => performance.now());
  }

  /** Milliseconds since arrival. */
  elapsed(): number {
    return this.#clock() - this.startedAt;
  }

  /** Registers a step for the exit. After the exit it runs at once, with the same ending. */
  defer(step: Step): void {
    if (this.#ending) this.#waitUntil(runStep(step, this.#ending));
    else this.#steps.push(step);
  }

  /** Keeps `work` alive after the response without holding up the exit or the log. */
  keep(work: Promise<unknown>): void {
    this.#waitUntil(work);
  }

  /** The request's answer; a stream's resolves when it ends. Set once. */
  answered(answer: Answer | Promise<Answer>): void {
    if (this.#answer) throw new Error('An exchange is answered once.');
    this.#answer = answer;
  }

  /** The one exit; every call after the first returns the same promise. */
  close(status: number, error: GatewayError | null): Promise<Ending> {
    this.#closed ??= this.#exit(status, error);
    return this.#closed;
  }

  async #exit(status: number, error: GatewayError | null): Promise<Ending> {
    const pending = error ? null : this.#answer;
    const answer = pending instanceof Promise ? await pending.catch(reportFailure) : pending;
    const ending: Ending = { status, error, answer, latencyMs: this.elapsed() };
    this.#ending = ending;
    const steps = this.#steps.splice(0).reverse();
    if (steps.length === 1) await runStep(steps[0]!, ending);
    else if (steps.length > 1) await Promise.all(steps.map((step) => runStep(step, ending)));
    return ending;
  }
}

/** A step that fails is reported and does not keep the others (or the log) from running. */
async function runStep(step: Step, ending: Ending): Promise<void> {
  try {
    await step(ending);
  } catch (err) {
    console.error('exchange exit step failed', err instanceof Error ? err.message : String(err));
  }
}

function reportFailure(err: unknown): null {
  console.error('exchange answer failed', err instanceof Error ? err.message : String(err));
  return null;
}
