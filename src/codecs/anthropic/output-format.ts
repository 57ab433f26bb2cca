/**
 * Structured output on Anthropic's Messages API (pure). A JSON schema is sent as
 * `output_config.format` (Anthropic's native structured output); models older than it, and
 * OpenAI's `json_object` mode (no schema), get a forced tool instead, whose input is the answer:
 * the decoders turn a call of that tool back into the answer's text, so the client reads JSON
 * where its SDK looks for it.
 */
import type { ChatRequest, ResponseFormat } from '../ir';
import { type Json, obj, str, unsupported } from '../json';
import { JSON_ANSWER_TOOL } from '../json-answer';

/** Claude models from before `output_config.format` (they take the forced tool). */
const NO_NATIVE_FORMAT = /^claude-(?:instant|[123](?:[.-]|$))|^claude-(?:opus|sonnet)-4(?:-0)?(?:-\d{8})?$/;

export function decodeOutputFormat(outputConfig: Json | null): ResponseFormat | null {
  const format = obj(outputConfig?.format);
  if (!format) return null;
  const schema = obj(format.schema);
  if (format.type !== 'json_schema' || !schema)
    throw unsupported('output_config.format.type', null, `'${String(format.type)}'`);
  return { type: 'json_schema', name: str(format.name) ?? 'response', schema, strict: isStrict(schema) };
}

/** Whether a schema already meets strict mode's rules (every object closed, every property required). */
function isStrict(schema: unknown): boolean {
  const s = obj(schema);
  if (!s) return true;
  const props = obj(s.properties);
  if (s.type === 'object' || props) {
    if (s.additionalProperties !== false) return false;
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    if (props && !Object.keys(props).every((k) => required.has(k))) return false;
  }
  const children = [
    ...Object.values(props ?? {}),
    s.items,
    ...(Array.isArray(s.anyOf) ? s.anyOf : []),
    ...Object.values(obj(s.$defs) ?? {}),
    ...Object.values(obj(s.definitions) ?? {}),
  ];
  return children.every(isStrict);
}

/** What to add to an Anthropic body for the request's response format (nothing when none). */
export function encodeOutputFormat(request: ChatRequest, model: string): Json {
  const format = request.responseFormat;
  if (!format) return {};
  if (format.type === 'json_schema' && !NO_NATIVE_FORMAT.test(model))
    return { output_config: { format: { type: 'json_schema', schema: format.schema } } };
  if (request.tools.length > 0)
    throw unsupported('response_format', 'anthropic', 'together with tools, for this model');
  const schema = format.type === 'json_schema' ? format.schema : { type: 'object' };
  return {
    tools: [
      { name: JSON_ANSWER_TOOL, description: "Give the answer as this tool's input.", input_schema: schema },
    ],
    tool_choice: { type: 'tool', name: JSON_ANSWER_TOOL },
  };
}
