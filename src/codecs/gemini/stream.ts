/**
 * Gemini's `streamGenerateContent?alt=sse` stream → canonical stream events
 * (pure, one decoder per stream). Each `data:` event is a whole
 * GenerateContentResponse holding the next piece of the answer; function calls
 * arrive whole, so each becomes a `tool_call` and one `tool_arguments` with its
 * full JSON.
 *
 * Gemini sends no terminator: the last chunk is the one carrying the
 * candidate's `finishReason` (or the prompt's `blockReason`) and, with it, the
 * final `usageMetadata`. So `end` is emitted once a finish has been seen and a
 * chunk at or after it carried usage; a stream that closes before that was
 * cut, and the relay, seeing no `end`, says so. Chunks after `end` are ignored.
 *
 * Thought parts are `reasoning` events; a part's `thoughtSignature` is a
 * `reasoning_signature` event, after the thought text it came on, or before the
 * event of any other part it came on (as ./response.ts orders a whole answer).
 */
import type { StreamDecoder } from '../codec';
import {
  blockReason,
  callId,
  candidateParts,
  finishFromGemini,
  firstCandidate,
  isThought,
  signatureOf,
} from './response';
import type { StreamEvent } from '../ir';
import { usageFromGemini } from './usage';
import { count, jsonText, obj, str, eventObject } from '../json';

export function geminiStreamDecoder(): StreamDecoder {
  let started = false;
  let finished = false;
  let ended = false;
  let promptReported = false;
  let calls = 0;
  let responseId = '';

  return {
    decode(event) {
      if (ended || event.data === '') return [];
      const chunk = eventObject(event.data);
      if (!chunk) return 'malformed';
      const error = obj(chunk.error);
      if (error) {
        ended = true;
        return [
          {
            type: 'error',
            message: str(error.message) ?? 'Gemini stream error',
            errorType: str(error.status) ?? 'error',
          },
        ];
      }
      const out: StreamEvent[] = [];
      if (!started) {
        started = true;
        responseId = str(chunk.responseId) ?? '';
        out.push({ type: 'start', id: responseId, model: str(chunk.modelVersion) ?? '' });
      }
      const candidate = firstCandidate(chunk);
      for (const part of candidateParts(candidate)) {
        const call = obj(part.functionCall);
        const signature = signatureOf(part);
        const signed: StreamEvent[] =
          signature === null ? [] : [{ type: 'reasoning_signature', signature, issuer: 'gemini' }];
        if (isThought(part)) {
          const text = str(part.text) ?? '';
          if (text !== '') out.push({ type: 'reasoning', text });
          out.push(...signed);
          continue;
        }
        out.push(...signed);
        if (typeof part.text === 'string' && part.text !== '') out.push({ type: 'text', text: part.text });
        else if (call) {
          const name = str(call.name);
          if (!name) return 'malformed';
          const index = calls++;
          out.push({ type: 'tool_call', index, id: callId(call, responseId, index), name });
          out.push({ type: 'tool_arguments', index, arguments: jsonText(call.args) });
        }
      }
      const blocked = blockReason(chunk);
      const reason = str(candidate?.finishReason);
      if (!finished && (reason || blocked)) {
        finished = true;
        const finish = blocked ? 'content_filter' : finishFromGemini(reason as string, calls > 0);
        out.push({ type: 'finish', reason: finish, stopSequence: null });
      }
      const usage = obj(chunk.usageMetadata);
      if (usage && finished) {
        ended = true;
        out.push({ type: 'usage', usage: usageFromGemini(usage) }, { type: 'end' });
      } else if (usage && !promptReported && 'promptTokenCount' in usage) {
        // The prompt's count is known from the first chunk: reported early, it survives a cut stream.
        promptReported = true;
        const full = usageFromGemini(usage);
        out.push({
          type: 'usage',
          usage: { input: full.input, cacheRead: count(usage.cachedContentTokenCount) },
        });
      }
      return out;
    },
  };
}
