/**
 * A cached OpenAI completion replayed as a well-formed chat stream (pure): a role chunk, the
 * reasoning (text, then its `reasoning_details`), the content, each tool call, the finish reason,
 * usage only when the client asked for it, then `[DONE]`.
 */
import type { Json } from '../json';

const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

export function replayOpenAi(body: Json, includeUsage: boolean): string {
  const base = {
    id: body.id,
    object: 'chat.completion.chunk',
    created: body.created,
    model: body.model,
    system_fingerprint: body.system_fingerprint ?? null,
  };
  const extra = includeUsage ? { usage: null } : {};
  const choices = Array.isArray(body.choices) ? (body.choices as Json[]) : [];
  let out = '';
  for (const choice of choices) {
    const index = choice.index ?? 0;
    const message = (choice.message ?? {}) as Json;
    out += frame({
      ...base,
      choices: [{ index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
      ...extra,
    });
    const reasoning: Json[] = [];
    if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '')
      reasoning.push({ reasoning_content: message.reasoning_content });
    if (Array.isArray(message.reasoning_details))
      reasoning.push({ reasoning_details: message.reasoning_details });
    for (const delta of reasoning)
      out += frame({ ...base, choices: [{ index, delta, logprobs: null, finish_reason: null }], ...extra });
    if (typeof message.content === 'string' && message.content !== '') {
      out += frame({
        ...base,
        choices: [{ index, delta: { content: message.content }, logprobs: null, finish_reason: null }],
        ...extra,
      });
    }
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : [];
    calls.forEach((call, i) => {
      out += frame({
        ...base,
        choices: [
          { index, delta: { tool_calls: [{ index: i, ...call }] }, logprobs: null, finish_reason: null },
        ],
        ...extra,
      });
    });
    out += frame({
      ...base,
      choices: [{ index, delta: {}, logprobs: null, finish_reason: choice.finish_reason ?? 'stop' }],
      ...extra,
    });
  }
  if (includeUsage && body.usage) out += frame({ ...base, choices: [], usage: body.usage });
  return `${out}data: [DONE]\n\n`;
}
