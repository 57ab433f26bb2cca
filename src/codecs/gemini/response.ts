/**
 * Reading Gemini's `GenerateContentResponse` (pure): a whole answer, and the
 * pieces the stream decoder shares with it: candidate parts, finish reasons,
 * usage, ids and the error envelope `{error: {code, message, status}}`.
 */
import type { ChatResponse, FinishReason, ProviderFault, TextPart, ToolCallPart } from '../ir';
import { arr, badUpstream, type Json, jsonText, obj, str } from '../json';
import { usageFromGemini } from './usage';

/** Finish reasons meaning the provider filtered or refused the output. */
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * STOP with function calls is a tool-call turn (Gemini has no reason of its
 * own for it). Reasons with no canonical equivalent (OTHER, MALFORMED_FUNCTION_CALL,
 * FINISH_REASON_UNSPECIFIED, new ones) read as a natural end.
 */
export function finishFromGemini(reason: string, hasCalls: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  return hasCalls ? 'tool_calls' : 'end';
}

/**
 * A call's id: Gemini's own when the part has one, else made from the
 * response id and the call's number in the answer, so one answer's ids are
 * stable (streamed or not) and differ from the next answer's.
 */
export function callId(functionCall: Json, responseId: string, n: number): string {
  return str(functionCall.id) ?? (responseId ? `call_${responseId}_${n}` : `call_${n}`);
}

/** The first candidate of a response (we never ask for more), or null. */
export function firstCandidate(response: Json): Json | null {
  return obj(arr(response.candidates)[0]);
}

/** A candidate's parts; thought summaries (`thought: true`) are left out, as they were never asked for. */
export function candidateParts(candidate: Json | null): Json[] {
  const parts = arr(obj(candidate?.content)?.parts);
  return parts.flatMap((p) => {
    const part = obj(p);
    return part && part.thought !== true ? [part] : [];
  });
}

/** Why a prompt was blocked before any candidate was generated (`promptFeedback.blockReason`), or null. */
export function blockReason(response: Json): string | null {
  return str(obj(response.promptFeedback)?.blockReason);
}

export function decodeGeminiResponse(body: unknown): ChatResponse {
  const b = obj(body);
  if (!b) throw badUpstream('an answer that is not a JSON object');
  const candidate = firstCandidate(b);
  const blocked = blockReason(b);
  if (!candidate && !blocked) throw badUpstream('an answer without candidates');
  const responseId = str(b.responseId) ?? '';
  const content: (TextPart | ToolCallPart)[] = [];
  let calls = 0;
  for (const part of candidateParts(candidate)) {
    const call = obj(part.functionCall);
    if (typeof part.text === 'string' && part.text !== '') {
      const last = content.at(-1);
      if (last?.type === 'text') content[content.length - 1] = { type: 'text', text: last.text + part.text };
      else content.push({ type: 'text', text: part.text });
    } else if (call) {
      const name = str(call.name);
      if (!name) throw badUpstream('a function call without a name');
      content.push({
        type: 'tool_call',
        id: callId(call, responseId, calls++),
        name,
        arguments: jsonText(call.args),
      });
    }
  }
  const reason = str(candidate?.finishReason);
  const usage = obj(b.usageMetadata);
  return {
    id: responseId,
    model: str(b.modelVersion) ?? '',
    created: Math.floor(Date.now() / 1000),
    content,
    finish: blocked ? 'content_filter' : reason ? finishFromGemini(reason, calls > 0) : null,
    stopSequence: null,
    usage: usage ? usageFromGemini(usage) : null,
  };
}

/** The error envelope; a streaming endpoint called without `alt=sse` wraps it in a list. */
export function decodeGeminiError(body: unknown): ProviderFault {
  const envelope = Array.isArray(body) ? obj(body[0]) : obj(body);
  const error = obj(envelope?.error);
  const code = error?.code;
  return {
    message: str(error?.message),
    type: str(error?.status) ?? (typeof code === 'number' ? String(code) : null),
  };
}
