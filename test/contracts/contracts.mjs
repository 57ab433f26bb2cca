/**
 * The providers' descriptions (./specs.mjs) compiled into validators, one per message the gateway
 * sends or reads: `check(ref, value)` returns the places where `value` departs from the
 * description (empty when it fits). The files are converted by ./schemas/ and compiled by ajv
 * (JSON Schema 2020-12), lazily, once per message; a provider whose description is missing has
 * no schemas (its tests skip, ./specs.mjs `missing`).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { botocoreSchemas } from './schemas/botocore.mjs';
import { nullableMayBeAbsent } from './schemas/nullable.mjs';
import { openApiSchemas } from './schemas/openapi.mjs';
import { protoSchemas } from './schemas/proto.mjs';
import { missing, readSpec } from './specs.mjs';

export { missing } from './specs.mjs';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
// OpenAI's document marks epoch-second timestamps with this format of its own.
ajv.addFormat('unixtime', { type: 'number', validate: Number.isInteger });
// A field the description marks deprecated, in a request (./schemas/openapi.mjs): still taken, but on its way out.
ajv.addKeyword({
  keyword: 'deprecatedField',
  schemaType: 'boolean',
  error: { message: 'is deprecated by the description' },
  validate: (deprecated) => !deprecated,
});

const LOADERS = {
  openai() {
    const openai = readSpec('openai', 'openai.json');
    ajv.addSchema(openApiSchemas(openai, 'openai', false));
    // Requests are checked closed: a field the description does not name would be refused.
    ajv.addSchema(openApiSchemas(openai, 'openai-closed', true));
  },
  gemini() {
    const gemini = readSpec('gemini', 'gemini.json');
    ajv.addSchema(protoSchemas(gemini, 'gemini-input', 'input'));
    ajv.addSchema(protoSchemas(gemini, 'gemini-output', 'output'));
  },
  bedrock() {
    bedrock = readSpec('bedrock', 'bedrock.json');
    ajv.addSchema(botocoreSchemas(bedrock, 'bedrock'));
  },
  anthropic() {
    const { definitions } = readSpec('anthropic', 'anthropic.json');
    ajv.addSchema({ $id: 'anthropic', definitions });
    ajv.addSchema({ $id: 'anthropic-answer', definitions: nullableMayBeAbsent(definitions) });
  },
};

/** Botocore's model, kept for its stream events and exceptions (null when missing). */
let bedrock = null;
for (const [provider, load] of Object.entries(LOADERS)) if (!missing(provider)) load();

/** Each provider's messages, by the name the tests use, as a reference into the compiled documents. */
export const MESSAGES = {
  openai: {
    chatRequest: 'openai-closed#/$defs/CreateChatCompletionRequest',
    chatResponse: 'openai#/$defs/CreateChatCompletionResponse',
    streamEvent: 'openai#/$defs/CreateChatCompletionStreamResponse',
    embeddingsRequest: 'openai-closed#/$defs/CreateEmbeddingRequest',
    embeddingsResponse: 'openai#/$defs/CreateEmbeddingResponse',
    error: 'openai#/$defs/ErrorResponse',
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
  const member = bedrock.shapes.ConverseStreamOutput.members[type];
  return member ? `bedrock#/$defs/${member.shape}` : null;
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
  if (!(bedrock.operations[operation].errors ?? []).some((error) => error.shape === name)) return null;
  return { ref: `bedrock#/$defs/${name}`, status: bedrock.shapes[name].error.httpStatusCode };
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
