/** The two caches the cache stage consults: exact entries in KV, and the semantic index that points at them. */
import type { ExactCache } from './exact-cache';
import type { SemanticCache } from './semantic';

export class ResponseCache {
  constructor(
    readonly exact: ExactCache,
    readonly semantic: SemanticCache,
  ) {}
}
