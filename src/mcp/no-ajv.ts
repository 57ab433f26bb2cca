/**
 * Stands in for `ajv` and `ajv-formats` in the Worker's bundle (wrangler.toml `[alias]`). The MCP SDK's
 * Client and Server import its Ajv validator statically, but the gateway hands both its own validators
 * (src/mcp/upstream.ts, src/mcp/handlers.ts: results pass through, the caller's client validates them), so
 * Ajv — which compiles schemas with `new Function`, refused by workerd anyway — would only add ~130 KB
 * for every isolate to parse. Constructing it is a bug, and says so.
 */
export default class NoAjv {
  constructor() {
    throw new Error('Ajv is not bundled in the gateway: pass a jsonSchemaValidator to the MCP SDK.');
  }
}
