/**
 * Where the contract tests find the providers' descriptions, and the check that they are the
 * ones recorded. What was read from the providers' repositories is kept out of this repository:
 * it lives in $CONTRACTS_SPECS, else ../shared/data/contracts beside the checkout (written by
 * refresh-specs.mjs). Anthropic's, made from the npm package, is committed in ./specs/. Every
 * file must have the SHA-256 that ./specs/provenance.json records: a description that changed
 * without its provenance is an error, a missing one skips its provider's tests, saying so.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const COMMITTED = join(HERE, 'specs');
export const SHARED = resolve(HERE, '..', '..', process.env.CONTRACTS_SPECS ?? '../shared/data/contracts');
const PROVENANCE = JSON.parse(readFileSync(join(COMMITTED, 'provenance.json'), 'utf8'));

/** Why `provider`'s description cannot be read (a sentence), or null when every file of it is there. */
export function missing(provider) {
  const files = Object.keys(PROVENANCE[provider]?.files ?? {});
  if (files.length === 0) return `no description of ${provider} is recorded in specs/provenance.json`;
  const absent = files.filter((file) => !existsSync(locate(file)));
  return absent.length === 0
    ? null
    : `${absent.join(', ')} not found in ${SHARED} (set CONTRACTS_SPECS, or run npm run contracts:refresh)`;
}

function locate(file) {
  return existsSync(join(COMMITTED, file)) ? join(COMMITTED, file) : join(SHARED, file);
}

/** One description file of `provider`, parsed, after checking its SHA-256 against the provenance. */
export function readSpec(provider, file) {
  const text = readFileSync(locate(file), 'utf8');
  const expected = PROVENANCE[provider].files[file];
  const actual = createHash('sha256').update(text).digest('hex');
  if (actual !== expected)
    throw new Error(
      `${locate(file)} is not the description specs/provenance.json records (sha256 ${actual}, not ${expected}): ` +
        'run npm run contracts:refresh and commit the provenance it writes',
    );
  return JSON.parse(text);
}
