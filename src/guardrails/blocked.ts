/** The refusal a `block` verdict becomes: 400 `guardrail_blocked`, naming the guardrail, never what it matched. */
import type { Direction, Guardrail } from '../core/guardrail-policy';
import { GatewayError } from '../core/errors';

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
