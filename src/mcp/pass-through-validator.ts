/**
 * The JSON Schema validator the gateway hands the MCP SDK's Client and Server: it accepts everything. The
 * gateway passes tool results and arguments through unchanged and the caller's own client validates them;
 * the SDK's default (Ajv) would compile schemas with `new Function`, which workerd refuses (src/mcp/no-ajv.ts).
 */
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

export const passThroughValidator: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};
