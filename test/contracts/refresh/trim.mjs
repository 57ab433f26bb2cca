/**
 * What every description's refresh (../refresh-specs.mjs) shares: reading a file from a bare git
 * mirror, keeping only what a set of roots reaches, and dropping prose.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** A reader of bare mirrors under `mirrors` (`<owner>+<name>/repo`): `git(repo, ...args)` and `file(repo, path)`. */
export function mirrorReader(mirrors) {
  const git = (repo, ...args) =>
    execFileSync('git', ['--git-dir', join(mirrors, repo.replace('/', '+'), 'repo'), ...args], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  /** The last commit that changed `path`, its date, and the file's text at HEAD. */
  const file = (repo, path) => {
    const [sha, date] = git(repo, 'log', '-1', '--format=%H %cI', 'HEAD', '--', path).trim().split(' ');
    return { text: git(repo, 'show', `HEAD:${path}`), sha, date };
  };
  return { git, file };
}

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

/** Keys whose value is a table of names (properties, members, definitions), whose keys are never prose. */
const NAME_TABLES = new Set([
  'properties',
  'patternProperties',
  'members',
  'schemas',
  'shapes',
  '$defs',
  'definitions',
]);

/** A copy of a JSON value without the keywords `drop` names (prose, vendor extensions); names are kept. */
export function strip(value, drop, names = false) {
  if (Array.isArray(value)) return value.map((item) => strip(item, drop));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => names || !drop(key))
      .map(([key, item]) => [key, strip(item, drop, !names && NAME_TABLES.has(key))]),
  );
}

/** The names `$ref`s point to, with `pattern` (the document's prefix) removed. */
export function collectRefs(value, pattern, found = []) {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, pattern, found);
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.push(item.replace(pattern, ''));
      else collectRefs(item, pattern, found);
    }
  return found;
}
