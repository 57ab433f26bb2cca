/**
 * Isolate-wide memos with a size cap: `setCapped` adds an entry to an
 * insertion-ordered Map, dropping the oldest entry first once the map holds
 * `max` (a key already present is only updated). The key hashes, the
 * tenant adapters, the opened provider keys and the deny-list finders all
 * stay within their caps through it.
 */
export function setCapped<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (map.size >= max && !map.has(key)) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
