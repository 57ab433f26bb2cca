/**
 * The forced answer tool (pure): where a provider has no structured output of its own for a model
 * (older Claude models, Bedrock's models without `outputConfig`), the JSON answer is asked for as
 * the input of this tool, forced by the tool choice, and each such codec turns a call of it back
 * into the answer's text. A client never sees it as a tool call.
 */
export const JSON_ANSWER_TOOL = 'edgeway_json_answer';
