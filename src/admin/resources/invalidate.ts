/**
 * After an admin write, forgets the cached lookups of every affected key hash,
 * awaited before the response: the change is then in force at once in this
 * isolate and colo (isolate entry and KV entry deleted), and elsewhere within
 * the KeyStore's bound (~70 s, see src/storage/key-store.ts).
 * A tenant change touches all its keys, two KV deletes at most per key; Workers
 * allow 1,000 KV operations per invocation, so past MAX_INVALIDATIONS (~450
 * keys) the rest fall back to the time bound (stated, not hidden).
 */
import type { KeyStore } from '../../storage/key-store';

const MAX_INVALIDATIONS = 900;

export async function invalidateHashes(keys: KeyStore, hashes: readonly string[]): Promise<void> {
  const unique = [...new Set(hashes)].slice(0, MAX_INVALIDATIONS);
  await Promise.all(unique.map((hash) => keys.invalidate(hash)));
}
