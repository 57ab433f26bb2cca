/**
 * The Responses API answer in OpenAI's wire format: the `response` object
 * (output items: a reasoning item for models that reason, then a message, a
 * function_call or a custom_tool_call), and its semantic event stream —
 * `event: <type>` plus `data: {type, sequence_number, …}`, sequence numbers
 * from 0 across every event, no `[DONE]`:
 * response.created → response.in_progress → per item output_item.added, its
 * parts and deltas, output_item.done → response.completed | response.incomplete.
 * The stream is a list of segments (single events, runs of deltas) so token
 * events render lazily with the right sequence number. Field sets follow
 * openai/resources/responses/responses.d.ts.
 */
import { isReasoningModel } from './chat-options';
import { type Completion, outputTokens } from './completion';
import { idFrom } from './hash';
import type { Item } from './responses-items';
import type { ResponsesRequest } from './responses-request';
import type { StreamPlan } from './schedule';
import { isRecord } from './validate';

export interface ResponsesMeta {
  readonly id: string;
  /** Unix seconds. */
  readonly createdAt: number;
  /** Seed of the item ids (from the request). */
  readonly seed: number;
  readonly promptTokens: number;
  readonly cachedTokens: number;
  /** The reasoning item's `encrypted_content`, when `include` asks for it. */
  readonly encrypted: string | undefined;
}

type Json = Record<string, unknown>;

/** The answer's output items, in order (no ids change between the JSON answer and the stream). */
export function outputItems(request: ResponsesRequest, completion: Completion, meta: ResponsesMeta): Json[] {
  const items: Json[] = [];
  const id = (prefix: string, n: number) => idFrom(prefix, meta.seed ^ Math.imul(n + 1, 0x9e3779b1), 48);
  if (completion.reasoning.length > 0)
    items.push({
      id: id('rs_', 0),
      type: 'reasoning',
      summary: request.summary ? [{ type: 'summary_text', text: completion.reasoning.join('') }] : [],
      ...(meta.encrypted === undefined ? {} : { encrypted_content: meta.encrypted }),
    });
  if (completion.kind === 'tool') {
    const tool = request.tools.find((t) => t.name === completion.name);
    const callId = idFrom('call_', meta.seed ^ 0x5bd1e995);
    const ns = tool?.namespace === undefined ? {} : { namespace: tool.namespace };
    if (tool?.kind === 'custom') {
      const input =
        typeof completion.input.input === 'string'
          ? completion.input.input
          : JSON.stringify(completion.input);
      items.push({
        id: id('ctc_', 1),
        type: 'custom_tool_call',
        call_id: callId,
        input,
        name: completion.name,
        ...ns,
      });
    } else
      items.push({
        id: id('fc_', 1),
        type: 'function_call',
        status: 'completed',
        arguments: JSON.stringify(completion.input),
        call_id: callId,
        name: completion.name,
        ...ns,
      });
    return items;
  }
  // A limit the reasoning used up leaves no message, as OpenAI's answers show.
  if (completion.tokens.length > 0 || !completion.truncated)
    items.push({
      id: id('msg_', 1),
      type: 'message',
      status: completion.truncated ? 'incomplete' : 'completed',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: completion.tokens.join('') }],
      role: 'assistant',
    });
  return items;
}

export function responsesUsage(completion: Completion, meta: ResponsesMeta): Json {
  const output = outputTokens(completion);
  return {
    input_tokens: meta.promptTokens,
    input_tokens_details: { cached_tokens: meta.cachedTokens, cache_write_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: completion.reasoning.length },
    total_tokens: meta.promptTokens + output,
  };
}

const truncated = (completion: Completion): boolean => completion.kind === 'text' && completion.truncated;

const field = (body: Json, name: string, fallback: unknown): unknown => body[name] ?? fallback;

/**
 * The response object. `final` false gives the in-progress object of
 * response.created / response.in_progress (no output, no usage).
 */
export function responseObject(
  request: ResponsesRequest,
  body: Json,
  completion: Completion,
  meta: ResponsesMeta,
  final: boolean,
): Json & { output: Item[] } {
  const cut = truncated(completion);
  const status = !final ? 'in_progress' : cut ? 'incomplete' : 'completed';
  const reasoning = isRecord(body.reasoning) ? body.reasoning : {};
  const text = isRecord(body.text) ? body.text : {};
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status,
    background: false,
    completed_at: status === 'completed' ? meta.createdAt : null,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.maxOutputTokens ?? null,
    model: request.model,
    output: final ? outputItems(request, completion, meta) : [],
    parallel_tool_calls: field(body, 'parallel_tool_calls', true),
    previous_response_id: request.previousResponseId ?? null,
    prompt_cache_key: field(body, 'prompt_cache_key', null),
    reasoning: {
      effort: reasoning.effort ?? (isReasoningModel(request.model) ? 'medium' : null),
      summary: reasoning.summary ?? reasoning.generate_summary ?? null,
    },
    safety_identifier: field(body, 'safety_identifier', null),
    service_tier: 'default',
    store: request.store,
    temperature: field(body, 'temperature', 1),
    text: { format: text.format ?? { type: 'text' }, verbosity: text.verbosity ?? 'medium' },
    tool_choice: field(body, 'tool_choice', 'auto'),
    tools: field(body, 'tools', []),
    top_logprobs: field(body, 'top_logprobs', 0),
    top_p: field(body, 'top_p', 1),
    truncation: field(body, 'truncation', 'disabled'),
    usage: final ? responsesUsage(completion, meta) : null,
    user: field(body, 'user', null),
    metadata: field(body, 'metadata', {}),
  };
}

/** One SSE event: `event:` line plus data whose first fields are type and sequence_number. */
function frame(type: string, seq: number, rest: Json): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq, ...rest })}\n\n`;
}

type Segment =
  | { readonly kind: 'fixed'; readonly render: (seq: number) => string }
  | { readonly kind: 'deltas'; readonly count: number; readonly render: (i: number, seq: number) => string };

const fixed = (type: string, rest: Json): Segment => ({
  kind: 'fixed',
  render: (seq) => frame(type, seq, rest),
});

/** Random-looking padding, as OpenAI's `obfuscation` field on delta events (deterministic here). */
function obfuscation(seed: number, seq: number, delta: string): string {
  return idFrom('', seed ^ Math.imul(seq + 1, 0x85ebca6b), Math.max(2, 16 - (delta.length % 16)));
}

/** The events of an answer, as segments in order. */
function segments(
  request: ResponsesRequest,
  body: Json,
  completion: Completion,
  meta: ResponsesMeta,
): Segment[] {
  const pending = responseObject(request, body, completion, meta, false);
  const final = responseObject(request, body, completion, meta, true);
  const pad = (seq: number, delta: string): Json =>
    request.obfuscate ? { obfuscation: obfuscation(meta.seed, seq, delta) } : {};
  const out: Segment[] = [
    fixed('response.created', { response: pending }),
    fixed('response.in_progress', { response: pending }),
  ];
  for (const [index, item] of final.output.entries()) {
    const at = { item_id: item.id, output_index: index };
    const done = fixed('response.output_item.done', { output_index: index, item });
    if (item.type === 'reasoning') {
      const summary = item.summary as { text: string }[];
      // The reasoning is sealed once it is done: the added item has no encrypted_content yet.
      const { encrypted_content: _sealed, ...opening } = item;
      out.push(
        fixed('response.output_item.added', { output_index: index, item: { ...opening, summary: [] } }),
      );
      if (summary.length > 0) {
        const text = summary[0]?.text ?? '';
        const part = { ...at, summary_index: 0 };
        out.push(
          fixed('response.reasoning_summary_part.added', {
            ...part,
            part: { type: 'summary_text', text: '' },
          }),
        );
        out.push({
          kind: 'deltas',
          count: completion.reasoning.length,
          render: (i, seq) => {
            const delta = completion.reasoning[i] as string;
            return frame('response.reasoning_summary_text.delta', seq, {
              ...part,
              delta,
              ...pad(seq, delta),
            });
          },
        });
        out.push(fixed('response.reasoning_summary_text.done', { ...part, text }));
        out.push(
          fixed('response.reasoning_summary_part.done', { ...part, part: { type: 'summary_text', text } }),
        );
      }
      out.push(done);
    } else if (item.type === 'message') {
      const content = (item.content as Json[])[0] as Json;
      const part = { ...at, content_index: 0 };
      const tokens = completion.kind === 'text' ? completion.tokens : [];
      out.push(
        fixed('response.output_item.added', {
          output_index: index,
          item: { ...item, status: 'in_progress', content: [] },
        }),
      );
      out.push(fixed('response.content_part.added', { ...part, part: { ...content, text: '' } }));
      out.push({
        kind: 'deltas',
        count: tokens.length,
        render: (i, seq) => {
          const delta = tokens[i] as string;
          return frame('response.output_text.delta', seq, {
            ...part,
            delta,
            logprobs: [],
            ...pad(seq, delta),
          });
        },
      });
      out.push(fixed('response.output_text.done', { ...part, text: content.text, logprobs: [] }));
      out.push(fixed('response.content_part.done', { ...part, part: content }));
      out.push(done);
    } else if (item.type === 'function_call') {
      const args = item.arguments as string;
      out.push(
        fixed('response.output_item.added', {
          output_index: index,
          item: { ...item, status: 'in_progress', arguments: '' },
        }),
      );
      out.push({
        kind: 'deltas',
        count: 1,
        render: (_i, seq) =>
          frame('response.function_call_arguments.delta', seq, { ...at, delta: args, ...pad(seq, args) }),
      });
      out.push(fixed('response.function_call_arguments.done', { ...at, name: item.name, arguments: args }));
      out.push(done);
    } else {
      const input = item.input as string;
      out.push(fixed('response.output_item.added', { output_index: index, item: { ...item, input: '' } }));
      out.push({
        kind: 'deltas',
        count: 1,
        render: (_i, seq) =>
          frame('response.custom_tool_call_input.delta', seq, { ...at, delta: input, ...pad(seq, input) }),
      });
      out.push(fixed('response.custom_tool_call_input.done', { ...at, input }));
      out.push(done);
    }
  }
  const terminal = final.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  out.push(fixed(terminal, { response: final }));
  return out;
}

/** A run of delta events: its first token index and sequence number, and the single events before it. */
interface Run {
  readonly first: number;
  readonly seq: number;
  readonly count: number;
  readonly render: (i: number, seq: number) => string;
  readonly before: readonly string[];
}

/**
 * The stream plan: the events before the first delta are the head, each delta
 * is a token event (carrying the item boundaries before it), the events after
 * the last delta are the tail. Without deltas, the head is created + in_progress.
 */
export function responsesStreamPlan(
  request: ResponsesRequest,
  body: Json,
  completion: Completion,
  meta: ResponsesMeta,
): StreamPlan {
  const all = segments(request, body, completion, meta);
  const runs: Run[] = [];
  const head: string[] = [];
  let loose: string[] = [];
  let seq = 0;
  let tokens = 0;
  for (const segment of all) {
    if (segment.kind === 'fixed') {
      loose.push(segment.render(seq++));
      continue;
    }
    if (segment.count === 0) continue;
    if (runs.length === 0) head.push(...loose);
    runs.push({
      first: tokens,
      seq,
      count: segment.count,
      render: segment.render,
      before: runs.length === 0 ? [] : loose,
    });
    loose = [];
    seq += segment.count;
    tokens += segment.count;
  }
  if (runs.length === 0) head.push(...loose.splice(0, 2));
  const first = runs[0];
  return {
    head,
    tokenCount: tokens,
    token: (i) => {
      const run = runs.find((r) => i >= r.first && i < r.first + r.count) as Run;
      const at = i - run.first;
      const event = run.render(at, run.seq + at);
      return at === 0 && run.before.length > 0 ? run.before.join('') + event : event;
    },
    tail: loose,
    malformed: 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta",\n\n',
    content: {
      open: `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":${first?.seq ?? head.length},"delta":"`,
      close: '"}\n\n',
    },
  };
}
