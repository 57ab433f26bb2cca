/**
 * V8's JSON.parse message without the excerpt of the input it quotes
 * (`Unexpected token 'x', "{"key":"sk-…" is not valid JSON`): a request body
 * or a secret-bearing variable must never be echoed into an error or a log.
 */
export function jsonProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  const head = message.split(/,\s*"/)[0]?.trim().slice(0, 120);
  return head || 'syntax error';
}
