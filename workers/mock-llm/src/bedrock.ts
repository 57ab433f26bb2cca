/**
 * AWS Bedrock's Converse and ConverseStream: POST /model/{modelId}/converse
 * and /converse-stream (the id URL-encoded). SigV4 is checked (src/bedrock-auth.ts),
 * the body validated (src/bedrock-request.ts), and the answer built from the
 * mock's completion rules: echo or generated words, or a tool call when the
 * tool choice forces one (`any`, `tool`) or `mock.tool_call` asks for it.
 * Controls travel in the body's `mock` field, as on the other routes, or in
 * the model id (`echo;cut_after=3`) when a gateway writes the body.
 */
import { checkSignature } from './bedrock-auth';
import { bedrockError, injectedBedrockError, newAwsRequestId, validationError } from './bedrock-errors';
import { type ConverseRequest, parseConverseRequest } from './bedrock-request';
import { eventStreamResponse, planEvent } from './bedrock-stream';
import { jsonAnswer } from './body-faults';
import { type Completion, complete, contentSeed, outputTokens, requestSeed } from './completion';
import type { Controls } from './controls';
import { applyPreResponseFaults } from './faults';
import { idFrom } from './hash';
import type { StreamPlan } from './schedule';
import { promptTokens } from './text';

const PATH = /^\/model\/([^/]+)\/(converse|converse-stream)$/;

function stopReason(completion: Completion): 'end_turn' | 'max_tokens' | 'tool_use' {
  if (completion.kind === 'tool') return 'tool_use';
  return completion.truncated ? 'max_tokens' : 'end_turn';
}

function usage(request: ConverseRequest, completion: Completion): Record<string, number> {
  const input = promptTokens(request.system ? [request.system, ...request.messages] : request.messages);
  const output = outputTokens(completion);
  return { inputTokens: input, outputTokens: output, totalTokens: input + output };
}

function converseBody(request: ConverseRequest, completion: Completion, toolUseId: string): unknown {
  const content =
    completion.kind === 'tool'
      ? [{ toolUse: { toolUseId, name: completion.name, input: {} } }]
      : [{ text: completion.tokens.join('') }];
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: stopReason(completion),
    usage: usage(request, completion),
    metrics: { latencyMs: 0 },
  };
}

/** messageStart, [contentBlockStart], contentBlockDelta per token, contentBlockStop, messageStop, metadata. */
function streamPlan(request: ConverseRequest, completion: Completion, toolUseId: string): StreamPlan {
  const tool = completion.kind === 'tool';
  const head = [planEvent('messageStart', { role: 'assistant' }, 0)];
  if (tool)
    head.push(
      planEvent(
        'contentBlockStart',
        { contentBlockIndex: 0, start: { toolUse: { toolUseId, name: completion.name } } },
        1,
      ),
    );
  const tokens = completion.kind === 'text' ? completion.tokens : [];
  const delta = (i: number) =>
    planEvent(
      'contentBlockDelta',
      { contentBlockIndex: 0, delta: tool ? { toolUse: { input: '{}' } } : { text: tokens[i] } },
      i + 2,
    );
  return {
    head,
    tokenCount: tool ? 1 : tokens.length,
    token: delta,
    tail: [
      planEvent('contentBlockStop', { contentBlockIndex: 0 }, 3),
      planEvent('messageStop', { stopReason: stopReason(completion) }, 4),
      planEvent('metadata', { usage: usage(request, completion), metrics: { latencyMs: 0 } }, 5),
    ],
    malformed: '!malformed',
    content: { open: '', close: '' },
  };
}

/** `mock.status` and friends, answered in Bedrock's envelope (the shared fault logic decides whether and when). */
async function preResponseFault(controls: Controls): Promise<Response | null> {
  const plain = { ...controls, error_message: undefined, error_body_bytes: undefined };
  const fault = await applyPreResponseFaults('openai', plain);
  if (!fault) return null;
  await fault.body?.cancel();
  const { type, message } = injectedBedrockError(fault.status);
  const text = controls.error_message?.replaceAll('{key}', 'AKIDEXAMPLE') ?? message;
  const padded = controls.error_body_bytes ? text.padEnd(controls.error_body_bytes, ' ') : text;
  return bedrockError(fault.status, type, padded);
}

export async function handleBedrock(request: Request): Promise<Response> {
  const match = PATH.exec(new URL(request.url).pathname);
  if (!match) return bedrockError(404, 'UnknownOperationException', 'Unknown operation');
  const model = decodeURIComponent(match[1] as string);
  const stream = match[2] === 'converse-stream';
  const raw = await request.arrayBuffer();
  const denied = await checkSignature(request, raw);
  if (denied) return denied;

  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    return bedrockError(400, 'SerializationException', 'Unable to parse the request body as JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return bedrockError(400, 'SerializationException', 'The request body must be a JSON object.');
  const record = body as Record<string, unknown>;
  const parsed = parseConverseRequest(record, model);
  if (!parsed.ok) return validationError(parsed.message);
  const converse = parsed.value;

  const fault = await preResponseFault(converse.controls);
  if (fault) return fault;

  const seed = contentSeed(model, converse.messages);
  const completion = complete({
    model,
    messages: converse.messages,
    seed,
    maxTokens: converse.maxTokens,
    firstTool: converse.tool,
    controls: { ...converse.controls, tool_call: converse.tool !== undefined },
  });
  const toolUseId = idFrom('tooluse_', requestSeed({ ...record, model }, seed), 22);
  const headers = { 'x-amzn-requestid': newAwsRequestId() };
  if (!stream) return jsonAnswer(converseBody(converse, completion, toolUseId), headers, converse.controls);
  return eventStreamResponse(streamPlan(converse, completion, toolUseId), converse.controls, headers);
}
