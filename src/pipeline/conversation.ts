/**
 * The stored-response stage of POST /v1/responses (docs/responses.md, "Stored responses"), in two calls the
 * proxy makes:
 *
 * - `expandConversation`, right after the body is read and before policy and guardrails: a body naming
 *   `previous_response_id` becomes the whole conversation (the caller's own stored response, else a 400
 *   `previous_response_not_found`), so every later stage, and every upstream, sees a stateless request; and
 *   item references to items the gateway issued become those items (src/core/item-references.ts). A body
 *   with neither costs nothing: no read, no copy.
 * - `keepResponse`, once the answer is whole (a JSON answer before it is returned, a stream before its
 *   terminal event is relayed): stores the record, awaited, so a next request on any isolate finds it.
 *   `store: false`, or a tenant retention of 0 days, keeps nothing. A failed store never fails the answer:
 *   it is written to the Worker's log as `edgeway_store_failed`, with the request id.
 */
import { continueConversation, recordOf, type ResponsesBody } from '../core/conversation';
import { GatewayError, badRequest } from '../core/errors';
import type { Principal } from '../core/principal';
import { expiryOf, isResponseId, StoredResponse } from '../core/stored-response';
import { referencedResponses, resolveReferences } from '../core/item-references';
import type { GatewayCall } from './call';

/** What the expansion learnt, for the record and the answer's echo. */
export interface Conversation {
  /** The stored response the request continues (echoed as the answer's `previous_response_id`), or null. */
  readonly previousResponseId: string | null;
  /** How many leading items of the expanded body's `input` are the previous conversation. */
  readonly context: number;
}

const STANDALONE: Conversation = { previousResponseId: null, context: 0 };

export interface Expanded {
  /**
   * The body to go on with: the one given when it names no previous response (or is not an object: the
   * request's schema then refuses it). An expanded body keeps `previous_response_id` for the answer's
   * echo; nothing sends it upstream (the codecs leave it out).
   */
  readonly body: unknown;
  readonly conversation: Conversation;
}

export async function expandConversation(
  call: GatewayCall,
  principal: Principal,
  body: unknown,
): Promise<Expanded> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { body, conversation: STANDALONE };
  const expanded = await continuePrevious(call, principal, body as ResponsesBody);
  return { ...expanded, body: await withReferencesResolved(call, principal, expanded.body as ResponsesBody) };
}

/**
 * The body with the item references it holds to items the gateway issued replaced by those items
 * (src/core/item-references.ts); the body itself when it holds none (no read, no copy). A reference to an
 * item that is gone (deleted, expired, another tenant's) is a 400 naming it, as OpenAI answers.
 */
async function withReferencesResolved(
  call: GatewayCall,
  principal: Principal,
  body: ResponsesBody,
): Promise<ResponsesBody> {
  const ids = referencedResponses(body.input);
  if (ids.length === 0) return body;
  const now = Date.now();
  const found = await Promise.all(ids.map((id) => call.deps.responses.get(principal.tenantId, id, now)));
  const records = found.filter((r): r is StoredResponse => r !== null);
  const resolved = resolveReferences(body.input as unknown[], records);
  if (resolved.missing !== null) {
    throw new GatewayError(400, `Item with id '${resolved.missing}' not found.`, {
      code: 'item_not_found',
      param: 'input',
    });
  }
  return { ...body, input: resolved.input };
}

async function continuePrevious(
  call: GatewayCall,
  principal: Principal,
  body: ResponsesBody,
): Promise<Expanded> {
  const previous = body.previous_response_id;
  if (previous === undefined || previous === null) return { body, conversation: STANDALONE };
  if (typeof previous !== 'string') {
    throw badRequest("'previous_response_id' must be a string.", 'previous_response_id', 'invalid_type');
  }
  const record = await call.deps.responses.get(principal.tenantId, previous, Date.now());
  if (!record) throw previousNotFound(previous);
  const expanded = continueConversation(record, body);
  return {
    body: { ...expanded.body, previous_response_id: previous },
    conversation: { previousResponseId: previous, context: expanded.context },
  };
}

export function previousNotFound(id: string): GatewayError {
  const named = isResponseId(id) ? ` with id '${id}'` : '';
  return new GatewayError(400, `Previous response${named} not found.`, {
    code: 'previous_response_not_found',
    param: 'previous_response_id',
  });
}

/** Whether the client asked for its response to be stored (`store` defaults to true, as OpenAI's). */
function wantsStored(body: ResponsesBody): boolean {
  return body.store !== false;
}

/**
 * When the answer to `body` will be stored, now: asked for, and the tenant's retention (else the
 * deployment's) is not 0 days; null when it will not be. The proxy asks it first, so a request that will
 * not be kept pays for no assembly.
 */
export function storedUntil(
  call: GatewayCall,
  principal: Principal,
  body: ResponsesBody,
  now: number,
): number | null {
  if (!wantsStored(body)) return null;
  return expiryOf(now, principal.tenantResponsesRetentionDays, call.deps.config.responsesRetentionDays);
}

export type Kept = 'stored' | 'not_stored' | 'failed';

/** What a Responses object must be to be stored: an object whose `output` (when present) is a list of items. */
const ANSWER = StoredResponse.shape.response;

/**
 * Stores the answer to `body` (the client's body as expanded and as the stages left it, redactions included;
 * not the upstream body, which always says `store: false`), answered with `response` (the Responses object
 * the client gets, its `id` the record's). Resolves when the record is written, never rejects. The record's
 * model is the one the client named (as the log has it), else the answer's.
 */
export async function keepResponse(
  call: GatewayCall,
  principal: Principal,
  conversation: Conversation,
  body: ResponsesBody,
  response: Readonly<Record<string, unknown>>,
): Promise<Kept> {
  const now = Date.now();
  const expiresAt = storedUntil(call, principal, body, now);
  if (expiresAt === null) return 'not_stored';
  const x = call.exchange;
  try {
    const answer = ANSWER.parse(response);
    const record = recordOf({
      id: stringOf(answer.id, 'the response has no id'),
      tenantId: principal.tenantId,
      keyId: principal.id,
      model: x.model ?? (typeof answer.model === 'string' ? answer.model : ''),
      createdAt: now,
      expiresAt,
      body,
      context: conversation.context,
      response: answer,
    });
    await call.deps.responses.put(record, (work) => x.keep(work));
    return 'stored';
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    console.error(JSON.stringify({ edgeway_store_failed: { request_id: x.id, reason } }));
    return 'failed';
  }
}

function stringOf(value: unknown, missing: string): string {
  if (typeof value !== 'string' || value === '') throw new Error(missing);
  return value;
}
