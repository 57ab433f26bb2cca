/**
 * A stored response of POST /v1/responses: what the gateway keeps so `previous_response_id`, GET, DELETE and
 * the input items work on every provider (docs/responses.md, "Stored responses"). One record per tenant and
 * response id, as JSON in R2 (or D1's `body` column without the bucket), validated whenever it is read back.
 *
 *   context   the items before this request's own input: the previous conversation, already expanded
 *   input     this request's own input items, each with an id (OpenAI's input item shapes)
 *   response  the Responses object the client was answered with
 *
 * The conversation a later request continues is `context + input + response.output`.
 */
import * as z from 'zod';

/** One Responses item (input or output), kept as the client or the answer wrote it. */
export const ResponseItem = z.looseObject({ type: z.string().optional(), id: z.string().optional() });
export type ResponseItem = z.infer<typeof ResponseItem>;

export const StoredResponse = z.object({
  v: z.literal(1),
  id: z.string(),
  tenant_id: z.string(),
  key_id: z.string(),
  /** Epoch ms. */
  created_at: z.number(),
  /** Epoch ms after which the record is gone for every reader, and swept by the daily cron. */
  expires_at: z.number(),
  model: z.string(),
  context: z.array(ResponseItem),
  input: z.array(ResponseItem),
  response: z.looseObject({ output: z.array(ResponseItem).default([]) }),
});
export type StoredResponse = z.infer<typeof StoredResponse>;

/**
 * The response ids a store is asked about: what the gateway issues (`resp_…`) and what OpenAI issues, letters,
 * digits, `_` and `-`. Anything else names no record, without a lookup (ids are part of storage keys).
 */
const RESPONSE_ID = /^[A-Za-z0-9_-]{1,200}$/;

export function isResponseId(id: string): boolean {
  return RESPONSE_ID.test(id);
}

const DAY_MS = 86_400_000;

/**
 * When a response made at `now` expires, by the tenant's retention (null: the deployment's); null when the
 * retention is 0 days, which keeps nothing.
 */
export function expiryOf(now: number, tenantDays: number | null, deploymentDays: number): number | null {
  const days = tenantDays ?? deploymentDays;
  return days > 0 ? now + days * DAY_MS : null;
}
