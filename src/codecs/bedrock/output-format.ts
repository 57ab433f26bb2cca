/**
 * Structured output on Bedrock Converse (pure). A JSON schema goes as `outputConfig.textFormat`
 * (botocore bedrock-runtime service-2.json: OutputConfig → OutputFormat `{type: 'json_schema',
 * structure: {jsonSchema: {schema, name}}}`, the schema as JSON text) to the models Bedrock's
 * structured-output guide lists for Converse (Claude 4.5 and later). Other Claude and Nova models,
 * and OpenAI's `json_object` mode (no schema), get a forced tool whose input is the answer; the
 * decoders turn a call of it back into the answer's text. Models that cannot be forced to call
 * a tool are refused.
 */
import type { ChatRequest } from '../ir';
import { type Json, unsupported } from '../json';
import { JSON_ANSWER_TOOL } from '../json-answer';
import { takesForcedTool, takesOutputFormat } from './models';

export type OutputFormat =
  | { readonly kind: 'none' }
  | { readonly kind: 'native'; readonly outputConfig: Json }
  | { readonly kind: 'tool'; readonly tool: Json };

export function encodeOutputFormat(request: ChatRequest, model: string): OutputFormat {
  const format = request.responseFormat;
  if (!format) return { kind: 'none' };
  if (format.type === 'json_schema' && takesOutputFormat(model)) {
    const jsonSchema = { schema: JSON.stringify(format.schema), name: format.name };
    return {
      kind: 'native',
      outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema } } },
    };
  }
  if (!takesForcedTool(model))
    throw unsupported(
      'response_format',
      'bedrock',
      'for this model (it has no structured output on Converse)',
    );
  if (request.tools.length > 0)
    throw unsupported('response_format', 'bedrock', 'together with tools, for this model');
  const schema = format.type === 'json_schema' ? format.schema : { type: 'object' };
  const spec = {
    name: JSON_ANSWER_TOOL,
    description: "Give the answer as this tool's input.",
    inputSchema: { json: schema },
  };
  return {
    kind: 'tool',
    tool: { tools: [{ toolSpec: spec }], toolChoice: { tool: { name: JSON_ANSWER_TOOL } } },
  };
}
