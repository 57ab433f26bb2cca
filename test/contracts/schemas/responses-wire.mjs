/**
 * OpenAI's Responses API as the API takes and sends it, where the SDK's types say less:
 *
 * - the Response object: the examples of OpenAI's API reference for `POST /v1/responses`, plain
 *   and streamed, show `"store": true` and `"user": null` on every Response, and `"usage": null` on
 *   the in-progress one that `response.created` and `response.in_progress` carry; the types have no
 *   `store`, and `user` and `usage` optional but not nullable;
 * - delta events: the request's `stream_options.include_obfuscation` (on by default) "adds random
 *   characters to an `obfuscation` field on streaming delta events", in the types' own words, but no
 *   delta event type has that field;
 * - earlier answers in a request's `input`: OpenAI's conversation-state guide appends each output
 *   item back as `{ role, content }` (`content` its output_text parts), and OpenAI's Codex CLI sends
 *   its history's message and reasoning items without their `id` (codex-rs/protocol/src/models.rs
 *   skips serializing it); the types' output message requires `type`, `id` and `status`, their
 *   input messages take no output parts, and their reasoning item requires `id`.
 *
 * This admits exactly those; anything else the types do not name is still refused.
 */

const orNull = (schema) => ({ anyOf: [schema, { type: 'null' }] });

/** The Response definition admitting `store`, a null `user` and a null `usage`. */
function responseAsSent(response) {
  const { properties } = response;
  if ('store' in properties)
    throw new Error('contracts: the SDK now types Response.store: revisit schemas/responses-wire.mjs');
  return {
    ...response,
    properties: {
      ...properties,
      store: { type: 'boolean' },
      user: orNull(properties.user),
      usage: orNull(properties.usage),
    },
  };
}

/** A copy of the Responses API's `definitions` as the API sends its answers and stream events. */
export function responsesAsSent(definitions) {
  const out = { ...definitions, Response: responseAsSent(definitions.Response) };
  for (const { $ref } of definitions.ResponseStreamEvent.anyOf) {
    const name = $ref.replace('#/definitions/', '');
    const event = definitions[name];
    if (!event.properties.type.const.endsWith('.delta')) continue;
    out[name] = { ...event, properties: { ...event.properties, obfuscation: { type: 'string' } } };
  }
  return out;
}

/** A copy of the Responses API's `definitions` taking earlier answers' messages and reasoning without ids. */
export function responsesAsTaken(definitions) {
  const taken = {
    'ResponseInputItem.AssistantOutput': {
      ...definitions.ResponseOutputMessage,
      required: ['content', 'role'],
    },
    'ResponseInputItem.ReasoningWithoutId': {
      ...definitions.ResponseReasoningItem,
      required: ['summary', 'type'],
    },
  };
  const refs = Object.keys(taken).map((name) => ({ $ref: `#/definitions/${name}` }));
  return {
    ...definitions,
    ...taken,
    ResponseInputItem: { anyOf: [...definitions.ResponseInputItem.anyOf, ...refs] },
  };
}
