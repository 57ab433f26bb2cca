/**
 * The one piece of node:crypto the gateway uses (available in Workers under
 * the nodejs_compat flag, and in Node for bench/). Declared here rather than
 * pulling in all of @types/node for one function.
 */
declare module 'node:crypto' {
  interface Hash {
    update(data: string | Uint8Array): Hash;
    digest(encoding: 'hex' | 'base64url'): string;
  }
  export function createHash(algorithm: 'sha256'): Hash;
}
