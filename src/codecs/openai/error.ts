/** OpenAI's error envelope, `{"error":{"message","type","param","code"}}`, for a GatewayError (pure). */
import type { GatewayError } from '../../core/errors';

export function openAiErrorBody(err: GatewayError): unknown {
  return {
    error: { message: err.message, type: err.type, param: err.param, code: err.code, ...err.details },
  };
}
