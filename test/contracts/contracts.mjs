/**
 * The providers' descriptions (./specs.mjs) compiled into validators, one per message the gateway
 * sends or reads: `check(ref, value)` returns the places where `value` departs from the
 * description (empty when it fits). The files are converted by ./schemas/ where they are not
 * JSON Schema already (Gemini's proto descriptors) and compiled by ajv (JSON Schema 2020-12),
 * lazily, once per message. Every description is read when this module loads: one that is
 * missing or not the one recorded fails every test that imports it (./specs.mjs).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { deprecatedAsError } from './schemas/deprecated.mjs';
import { nullableMayBeAbsent } from './schemas/nullable.mjs';
import { protoSchemas } from './schemas/proto.mjs';
import { responsesAsSent, responsesAsTaken } from './schemas/responses-wire.mjs';
import { readSpec } from './specs.mjs';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
// A field the description marks deprecated, in a request (./schemas/deprecated.mjs): still taken, but on its way out.
ajv.addKeyword({
  keyword: 'deprecatedField',
  schemaType: 'boolean',
  error: { message: 'is deprecated by the description' },
  validate: (deprecated) => !deprecated,
});

const openai = readSpec('openai', 'openai.json').definitions;
ajv.addSchema({ $id: 'openai', definitions: openai });
ajv.addSchema({ $id: 'openai-request', definitions: deprecatedAsError(openai) });

/**
 * OpenAI's Responses API (`POST /v1/responses`); its errors are the chat API's envelope. Its
 * requests and answers admit what OpenAI documents beyond the SDK's types (./schemas/responses-wire.mjs).
 */
const responses = readSpec('openai', 'openai-responses.json').definitions;
ajv.addSchema({ $id: 'openai-responses', definitions: responsesAsSent(responses) });
ajv.addSchema({
  $id: 'openai-responses-request',
  definitions: deprecatedAsError(responsesAsTaken(responses)),
});

const anthropic = readSpec('anthropic', 'anthropic.json').definitions;
ajv.addSchema({ $id: 'anthropic', definitions: anthropic });
ajv.addSchema({ $id: 'anthropic-answer', definitions: nullableMayBeAbsent(anthropic) });

const gemini = readSpec('gemini', 'gemini.json');
ajv.addSchema(protoSchemas(gemini, 'gemini-input', 'input'));
ajv.addSchema(protoSchemas(gemini, 'gemini-output', 'output'));

/** Bedrock's description: JSON Schema under $defs, its operations' errors and its stream's events. */
const bedrock = readSpec('bedrock', 'bedrock.json');
ajv.addSchema({ $id: 'bedrock', $defs: bedrock.$defs });

/** Each provider's messages, by the name the tests use, as a reference into the compiled documents. */
export const MESSAGES = {
  openai: {
    chatRequest: 'openai-request#/definitions/ChatCompletionCreateParamsNonStreaming',
    streamRequest: 'openai-request#/definitions/ChatCompletionCreateParamsStreaming',
    chatResponse: 'openai#/definitions/ChatCompletion',
    streamEvent: 'openai#/definitions/ChatCompletionChunk',
    embeddingsRequest: 'openai-request#/definitions/EmbeddingCreateParams',
    embeddingsResponse: 'openai#/definitions/CreateEmbeddingResponse',
    error: 'openai#/definitions/ErrorResponse',
  },
  responses: {
    chatRequest: 'openai-responses-request#/definitions/ResponseCreateParamsNonStreaming',
    streamRequest: 'openai-responses-request#/definitions/ResponseCreateParamsStreaming',
    chatResponse: 'openai-responses#/definitions/Response',
    streamEvent: 'openai-responses#/definitions/ResponseStreamEvent',
    inputItems: 'openai-responses#/definitions/ResponseItemList',
    error: 'openai#/definitions/ErrorResponse',
  },
  anthropic: {
    chatRequest: 'anthropic#/definitions/MessageCreateParamsNonStreaming',
    streamRequest: 'anthropic#/definitions/MessageCreateParamsStreaming',
    chatResponse: 'anthropic-answer#/definitions/Message',
    streamEvent: 'anthropic-answer#/definitions/RawMessageStreamEvent',
    countTokensRequest: 'anthropic#/definitions/MessageCountTokensParams',
    countTokensResponse: 'anthropic-answer#/definitions/MessageTokensCount',
    error: 'anthropic-answer#/definitions/ErrorResponse',
  },
  gemini: {
    chatRequest: 'gemini-input#/$defs/rpc.GenerateContent',
    streamRequest: 'gemini-input#/$defs/rpc.StreamGenerateContent',
    chatResponse: 'gemini-output#/$defs/rpc.GenerateContent',
    streamEvent: 'gemini-output#/$defs/rpc.StreamGenerateContent',
    countTokensRequest: 'gemini-input#/$defs/rpc.CountTokens',
    countTokensResponse: 'gemini-output#/$defs/rpc.CountTokens',
    embeddingsRequest: 'gemini-input#/$defs/rpc.BatchEmbedContents',
    embeddingsResponse: 'gemini-output#/$defs/rpc.BatchEmbedContents',
  },
  bedrock: {
    chatRequest: 'bedrock#/$defs/ConverseRequest',
    streamRequest: 'bedrock#/$defs/ConverseStreamRequest',
    chatResponse: 'bedrock#/$defs/ConverseResponse',
    countTokensRequest: 'bedrock#/$defs/CountTokensRequest',
    countTokensResponse: 'bedrock#/$defs/CountTokensResponse',
  },
};

/** A ConverseStream event's payload, by its `:event-type` (a member of the ConverseStreamOutput union). */
export function bedrockEvent(type) {
  const shape = bedrock.events[type];
  return shape ? `bedrock#/$defs/${shape}` : null;
}

/** Anthropic's stream events by their `type`: the members of RawMessageStreamEvent (`ping` is none of them). */
const ANTHROPIC_EVENTS = {
  message_start: 'RawMessageStartEvent',
  message_delta: 'RawMessageDeltaEvent',
  message_stop: 'RawMessageStopEvent',
  content_block_start: 'RawContentBlockStartEvent',
  content_block_delta: 'RawContentBlockDeltaEvent',
  content_block_stop: 'RawContentBlockStopEvent',
};

/** An Anthropic stream event's schema, by its `type`; the whole union for a type it does not list. */
export function anthropicEvent(type) {
  return type in ANTHROPIC_EVENTS
    ? `anthropic-answer#/definitions/${ANTHROPIC_EVENTS[type]}`
    : MESSAGES.anthropic.streamEvent;
}

/**
 * A Bedrock error answer's schema and status, by its `x-amzn-errortype` (`Type:namespace`): the
 * exception shape, when `operation` lists it among its errors; null otherwise.
 */
export function bedrockError(operation, errorType) {
  const name = errorType.split(':')[0];
  const status = bedrock.operations[operation].errors[name];
  return status ? { ref: `bedrock#/$defs/${name}`, status } : null;
}

/** The Responses API's stream events by their `type`: each member of ResponseStreamEvent names its own. */
const RESPONSES_EVENTS = Object.fromEntries(
  responses.ResponseStreamEvent.anyOf.map(({ $ref }) => {
    const name = $ref.replace('#/definitions/', '');
    return [responses[name].properties.type.const, name];
  }),
);

/** A Responses stream event's schema, by its `type`; null for a type ResponseStreamEvent does not list. */
export function responsesEvent(type) {
  return Object.hasOwn(RESPONSES_EVENTS, type)
    ? `openai-responses#/definitions/${RESPONSES_EVENTS[type]}`
    : null;
}

/** The schema of one stream event of `format` ({ event, data } as ./exchange.mjs reads it). */
export function streamEventRef(format, event) {
  if (format === 'bedrock') return bedrockEvent(event.event);
  if (format === 'anthropic') return anthropicEvent(event.data.type);
  if (format === 'responses') return responsesEvent(event.data.type);
  return MESSAGES[format].streamEvent;
}

/** A stream event's payload as its description has it: Bedrock pads each with a `p` field of random length, set aside. */
export function eventPayload(format, data) {
  if (format !== 'bedrock') return data;
  const { p, ...rest } = data;
  return rest;
}

const compiled = new Map();

/** Where `value` departs from `ref` (a MESSAGES entry or bedrockEvent()), one line each; [] when it fits. */
export function check(ref, value) {
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.getSchema(ref);
    if (!validate) throw new Error(`contracts: no schema ${ref}`);
    compiled.set(ref, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${error.instancePath || '/'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
  );
}
