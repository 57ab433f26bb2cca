/**
 * Where the contract tests find the providers' descriptions, and the check that they are the
 * ones recorded: every one is made from an npm package installed as a devDependency
 * (refresh-specs.mjs) and committed in ./specs/, with its package@version and SHA-256 in
 * ./specs/provenance.json. A file missing, changed without its provenance, or made from another
 * version of its package than the one installed is an error, never a skip: the tests of every
 * provider run wherever `npm ci` has run.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const SPECS = join(HERE, 'specs');
const ROOT = join(HERE, '..', '..');
export const PROVENANCE = JSON.parse(readFileSync(join(SPECS, 'provenance.json'), 'utf8'));

/** `name@version` split at the version's `@` (a scoped name starts with one). */
function splitPackage(spec) {
  const at = spec.lastIndexOf('@');
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

/** The version of `name` installed in the checkout's node_modules. */
export function installedVersion(name) {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** One description file of `provider`, parsed, after checking it against its provenance. */
export function readSpec(provider, file) {
  const record = PROVENANCE[provider];
  if (!record?.files?.[file])
    throw new Error(`contracts: specs/provenance.json records no ${file} for ${provider}`);
  const { name, version } = splitPackage(record.package);
  const present = installedVersion(name);
  if (present !== version)
    throw new Error(
      `contracts: ${file} was made from ${record.package}, but ${name}@${present} is installed: ` +
        'run npm run contracts:refresh and commit test/contracts/specs/',
    );
  const text = readFileSync(join(SPECS, file), 'utf8');
  const actual = createHash('sha256').update(text).digest('hex');
  if (actual !== record.files[file])
    throw new Error(
      `contracts: specs/${file} is not the description specs/provenance.json records (sha256 ${actual}, ` +
        `not ${record.files[file]}): run npm run contracts:refresh and commit what it writes`,
    );
  return JSON.parse(text);
}
