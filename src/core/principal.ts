/** Who is calling: the key record auth resolves a secret to, and the allow-list check every stage and listing shares (pure). */
import type { KeyRecord } from './key-record';

export type Principal = KeyRecord;

/** True when `model` matches an allow-list entry: an exact id or a `provider/*` pattern; null allows every model. */
export function modelAllowed(allowed: readonly string[] | null, model: string): boolean {
  if (allowed === null) return true;
  return allowed.some((entry) =>
    entry.endsWith('/*') ? model.startsWith(entry.slice(0, -1)) : entry === model,
  );
}
