/**
 * The second-opinion guardrail's port: a safety classifier that reads a
 * request's conversation (user and assistant turns only) and says whether it
 * is safe, naming hazard categories when it is not. The gateway's adapter is
 * Llama Guard on Workers AI (./workers-ai.ts); tests use the fake `AI`
 * binding. `check` throws `SecondOpinionUnavailable` for every way the
 * classifier can fail to answer; ./consult.ts turns that into a value with the
 * caller's fail-open or fail-closed choice and a timeout.
 */

export type GuardRole = 'user' | 'assistant';

export interface GuardTurn {
  readonly role: GuardRole;
  readonly content: string;
}

export interface SecondOpinionVerdict {
  readonly safe: boolean;
  /** Hazard codes ('S1' … 'S14', see ./hazards.ts for their names); empty when safe. */
  readonly categories: string[];
}

export interface SecondOpinion {
  /** Names the classifier in logs, e.g. `workers-ai:@cf/meta/llama-guard-3-8b`. */
  readonly id: string;
  /** Judges the user side of the conversation. Throws `SecondOpinionUnavailable`, never another error. */
  check(conversation: readonly GuardTurn[], signal?: AbortSignal): Promise<SecondOpinionVerdict>;
}

/**
 * Why no verdict came back. `aborted`: the caller's signal fired (the client
 * left), so the outcome no longer matters.
 */
export type UnavailableReason = 'binding_missing' | 'error' | 'timeout' | 'unparseable' | 'aborted';

/**
 * The one error a second opinion throws. It carries a reason and, for
 * service errors, Workers AI's numeric code; never any text of the
 * conversation or of the service's message (which may quote it).
 */
export class SecondOpinionUnavailable extends Error {
  /** What the log event calls it. */
  readonly code = 'llama_guard_unavailable';

  constructor(
    readonly reason: UnavailableReason,
    /** Workers AI's error code (e.g. 3040) when the service gave one. */
    readonly serviceCode: number | null = null,
  ) {
    super(`second opinion unavailable: ${reason}${serviceCode !== null ? ` (${serviceCode})` : ''}`);
    this.name = 'SecondOpinionUnavailable';
  }
}
