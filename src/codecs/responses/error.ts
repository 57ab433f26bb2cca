/**
 * Errors of the Responses API (pure): the same envelope as Chat Completions,
 * `{"error":{"message","type","param","code"}}`, so the gateway's errors are written and a
 * provider's are read exactly as the OpenAI codec does (../openai/error.ts).
 */
import type { ErrorEnvelope } from '../../core/errors';
import type { ProviderFault } from '../ir';
import { decodeOpenAiError, openAiErrorBody } from '../openai/error';

export const responsesErrorBody: ErrorEnvelope = openAiErrorBody;

export const decodeResponsesError = (body: unknown): ProviderFault => decodeOpenAiError(body);
