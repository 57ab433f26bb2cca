/**
 * Reading Gemini's `GenerateContentResponse` (pure): a whole answer, and the
 * pieces the stream decoder shares with it: candidate parts, finish reasons,
 * usage, ids and the error envelope `{error: {code, message, status}}`.
 * Thought parts (`thought: true`, sent when `includeThoughts` was asked) are
 * reasoning; a `thoughtSignature` on any part is a reasoning part of its own,
 * placed before the part it came on, so the request encoder puts it back there.
 */
import type { AnswerPart, ChatResponse, FinishReason, ProviderFault } from '../ir';
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

/** A candidate's parts (objects only). */
export function candidateParts(candidate: Json | null): Json[] {
  return arr(obj(candidate?.content)?.parts).flatMap((p) => {
    const part = obj(p);
    return part ? [part] : [];
  });
}

/** A part's thought signature, exactly as Gemini sent it, or null. */
export const signatureOf = (part: Json): string | null => {
  const signature = str(part.thoughtSignature);
  return signature === '' ? null : signature;
};

/** Whether a part is thought text (a summary of the model's reasoning). */
export const isThought = (part: Json): boolean => part.thought === true;

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
  const content: AnswerPart[] = [];
  /** Appends text to the last part when it is text of the same kind still open, else starts a part. */
  const append = (type: 'text' | 'reasoning', text: string) => {
    const last = content.at(-1);
    if (type === 'text' && last?.type === 'text')
      content[content.length - 1] = { type, text: last.text + text };
    else if (type === 'reasoning' && last?.type === 'reasoning' && last.signature === null)
      content[content.length - 1] = { ...last, text: last.text + text };
    else if (type === 'text') content.push({ type, text });
    else content.push({ type, text, signature: null, issuer: 'gemini' });
  };
  /** A signature closes the open unsigned reasoning part, or stands as a reasoning part of its own. */
  const sign = (signature: string) => {
    const last = content.at(-1);
    if (last?.type === 'reasoning' && last.signature === null)
      content[content.length - 1] = { ...last, signature };
    else content.push({ type: 'reasoning', text: '', signature, issuer: 'gemini' });
  };
  let calls = 0;
  for (const part of candidateParts(candidate)) {
    const call = obj(part.functionCall);
    const signature = signatureOf(part);
    if (isThought(part)) {
      const text = str(part.text) ?? '';
      if (text !== '') append('reasoning', text);
      if (signature !== null) sign(signature);
      continue;
    }
    if (signature !== null) sign(signature);
    if (typeof part.text === 'string' && part.text !== '') append('text', part.text);
    else if (call) {
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
