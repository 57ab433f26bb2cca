/** OpenAI's error envelope, `{"error":{"message","type","param","code"}}`: the gateway's errors written in it, a provider's read from it (pure). */
import type { GatewayError } from '../../core/errors';
import type { ProviderFault } from '../ir';
import { obj, str } from '../json';

export function openAiErrorBody(err: GatewayError): unknown {
  return {
    error: { message: err.message, type: err.type, param: err.param, code: err.code, ...err.details },
  };
}

export function decodeOpenAiError(body: unknown): ProviderFault {
  const error = obj(obj(body)?.error);
  return {
    message: str(error?.message),
    type: str(error?.type) ?? str(error?.code),
    code: str(error?.code),
  };
}
