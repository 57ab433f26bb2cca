/**
 * The refusal a `block` verdict becomes: 400 `guardrail_blocked`, naming the guardrail, never what it matched.
 * A refusal for tool results also names them by the client's own tool call ids (and their positions), so an
 * agent can tell which call returned the text.
 */
import type { Direction, Guardrail } from '../core/guardrail-policy';
import { GatewayError } from '../core/errors';
import type { LogToolResult } from '../core/log-event';

export const GUARDRAIL_BLOCKED = 'guardrail_blocked';

const WHAT: Record<Guardrail, string> = {
  injection: 'a likely prompt injection or jailbreak',
  pii: 'personal data',
  secrets: 'a credential',
  denylist: 'a term on the deny-list',
  llama_guard: 'content the safety classifier judged unsafe',
};

export function blockedMessage(guardrail: Guardrail, direction: Direction): string {
  const side = direction === 'request' ? 'request' : 'answer';
  return `The ${side} was blocked by the '${guardrail}' guardrail: it contains ${WHAT[guardrail]}.`;
}

export function guardrailBlocked(guardrail: Guardrail, direction: Direction): GatewayError {
  return new GatewayError(400, blockedMessage(guardrail, direction), {
    code: GUARDRAIL_BLOCKED,
    details: { guardrail },
  });
}

/** Tool results named in a refusal's message; the rest are counted. */
const NAMED = 3;
/** Longest tool call id quoted in a message or the details. */
const ID_MAX = 64;

const cutId = (id: string) => (id.length > ID_MAX ? `${id.slice(0, ID_MAX)}…` : id);

/** `call_a (#2)`, or `#2` for a result without an id. */
const named = (r: LogToolResult) => (r.id === null ? `#${r.index}` : `${cutId(r.id)} (#${r.index})`);

/**
 * E.g. "The request was blocked by the 'injection' guardrail: tool result call_a (#2) contains a likely prompt
 * injection." (`#n`: the result's 0-based position among the request's tool results, as in the log).
 */
export function toolResultsBlockedMessage(results: readonly LogToolResult[]): string {
  const first = results.slice(0, NAMED).map(named);
  const more = results.length - first.length;
  const list = more > 0 ? `${first.join(', ')} and ${more} more` : first.join(' and ');
  const what =
    results.length === 1
      ? `tool result ${list} contains a likely prompt injection`
      : `tool results ${list} contain likely prompt injections`;
  return `The request was blocked by the 'injection' guardrail: ${what}.`;
}

export function toolResultsBlocked(results: readonly LogToolResult[]): GatewayError {
  return new GatewayError(400, toolResultsBlockedMessage(results), {
    code: GUARDRAIL_BLOCKED,
    details: {
      guardrail: 'injection',
      tool_results: results.map((r) => (r.id === null ? null : cutId(r.id))),
    },
  });
}
