/**
 * Keeping only what a description's roots reach (../refresh/gemini.mjs: the messages and enums
 * the chosen rpcs use, out of the whole API's protos).
 */

/** Everything `roots` reach through `refsOf` in `all` (a name → definition table). */
export function closure(all, roots, refsOf) {
  const seen = new Set();
  const todo = [...roots];
  while (todo.length > 0) {
    const name = todo.pop();
    if (seen.has(name) || !(name in all)) continue;
    seen.add(name);
    todo.push(...refsOf(all[name], name));
  }
  return Object.fromEntries([...seen].sort().map((name) => [name, all[name]]));
}
