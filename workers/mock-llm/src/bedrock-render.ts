/**
 * The Converse answer: the response body, or the ConverseStream plan
 * (messageStart, [contentBlockStart for a tool], contentBlockDelta per token,
 * contentBlockStop, messageStop, metadata). With thinking on, a
 * `reasoningContent` block comes first (streamed as `reasoningContent.text`
 * deltas then one `reasoningContent.signature`), then an optional redacted one,
 * then the answer at the next index. Usage reports cache reads and writes apart
 * from `inputTokens` when the request has cache points, as Bedrock does.
 */
import type { ConverseRequest } from './bedrock-request';
import { planEvent } from './bedrock-stream';
import { type Completion, outputTokens } from './completion';
import type { ExplicitUsage } from './prompt-cache';
import type { StreamPlan } from './schedule';

export interface ConverseMeta {
  readonly toolUseId: string;
  readonly input: number;
  /** Cache usage when the request has cache points. */
  readonly cache: ExplicitUsage | undefined;
  readonly signature?: string;
  readonly redacted?: string;
}

function stopReason(completion: Completion): 'end_turn' | 'max_tokens' | 'tool_use' {
  if (completion.kind === 'tool') return 'tool_use';
  return completion.truncated ? 'max_tokens' : 'end_turn';
}

function usage(completion: Completion, meta: ConverseMeta): Record<string, unknown> {
  const output = outputTokens(completion);
  const cache = meta.cache;
  if (!cache) return { inputTokens: meta.input, outputTokens: output, totalTokens: meta.input + output };
  const write = cache.write5m + cache.write1h;
  const details = [
    ...(cache.write5m > 0 ? [{ ttl: '5m', inputTokens: cache.write5m }] : []),
    ...(cache.write1h > 0 ? [{ ttl: '1h', inputTokens: cache.write1h }] : []),
  ];
  return {
    inputTokens: meta.input - cache.read - write,
    outputTokens: output,
    totalTokens: meta.input + output,
    cacheReadInputTokens: cache.read,
    cacheWriteInputTokens: write,
    ...(details.length > 0 ? { cacheDetails: details } : {}),
  };
}

const shown = (request: ConverseRequest, completion: Completion) =>
  request.options.thinking?.omitted ? '' : completion.reasoning.join('');

export function converseBody(request: ConverseRequest, completion: Completion, meta: ConverseMeta): unknown {
  const content: unknown[] = [];
  if (meta.signature !== undefined)
    content.push({
      reasoningContent: { reasoningText: { text: shown(request, completion), signature: meta.signature } },
    });
  if (meta.redacted !== undefined) content.push({ reasoningContent: { redactedContent: meta.redacted } });
  content.push(
    completion.kind === 'tool'
      ? { toolUse: { toolUseId: meta.toolUseId, name: completion.name, input: completion.input } }
      : { text: completion.tokens.join('') },
  );
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: stopReason(completion),
    usage: usage(completion, meta),
    metrics: { latencyMs: 0 },
  };
}

/** Reasoning events (counted as token events), ending with the signature and the blocks' stops. */
function reasoningEvents(request: ConverseRequest, completion: Completion, meta: ConverseMeta): string[] {
  if (meta.signature === undefined) return [];
  const words = request.options.thinking?.omitted ? [] : completion.reasoning;
  const out = words.map((text, i) =>
    planEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text } } }, i + 2),
  );
  out.push(
    planEvent(
      'contentBlockDelta',
      { contentBlockIndex: 0, delta: { reasoningContent: { signature: meta.signature } } },
      1,
    ),
  );
  out.push(planEvent('contentBlockStop', { contentBlockIndex: 0 }, 2));
  if (meta.redacted !== undefined) {
    out.push(
      planEvent(
        'contentBlockDelta',
        { contentBlockIndex: 1, delta: { reasoningContent: { redactedContent: meta.redacted } } },
        3,
      ),
    );
    out.push(planEvent('contentBlockStop', { contentBlockIndex: 1 }, 4));
  }
  return out;
}

export function converseStreamPlan(
  request: ConverseRequest,
  completion: Completion,
  meta: ConverseMeta,
): StreamPlan {
  const index = meta.signature === undefined ? 0 : meta.redacted === undefined ? 1 : 2;
  const before = reasoningEvents(request, completion, meta);
  if (completion.kind === 'tool')
    before.push(
      planEvent(
        'contentBlockStart',
        {
          contentBlockIndex: index,
          start: { toolUse: { toolUseId: meta.toolUseId, name: completion.name } },
        },
        1,
      ),
    );
  const head = [planEvent('messageStart', { role: 'assistant' }, 0)];
  // A plain tool call opens its block with the head, as before the reasoning existed.
  if (meta.signature === undefined && completion.kind === 'tool') head.push(before.pop() as string);
  const deltas =
    completion.kind === 'tool'
      ? [{ toolUse: { input: JSON.stringify(completion.input) } }]
      : completion.tokens.map((text) => ({ text }));
  return {
    head,
    tokenCount: before.length + deltas.length,
    token: (i) =>
      i < before.length
        ? (before[i] as string)
        : planEvent(
            'contentBlockDelta',
            { contentBlockIndex: index, delta: deltas[i - before.length] },
            i + 2,
          ),
    tail: [
      planEvent('contentBlockStop', { contentBlockIndex: index }, 3),
      planEvent('messageStop', { stopReason: stopReason(completion) }, 4),
      planEvent('metadata', { usage: usage(completion, meta), metrics: { latencyMs: 0 } }, 5),
    ],
    malformed: '!malformed',
    content: { open: '', close: '' },
  };
}
