/**
 * Refreshes the providers' published API descriptions the contract tests read: each from a local
 * git mirror of its public repository (or, for Anthropic, from the installed @anthropic-ai/sdk),
 * keeping only what the tests need (the named roots and everything they refer to, without prose),
 * and records where each came from, with the SHA-256 of the file written, in ./specs/provenance.json.
 *
 *   npm run contracts:refresh -- [mirrors-dir] [out-dir]
 *
 * `mirrors-dir` (default $CONTRACTS_MIRRORS, else /work/.mirror) holds one bare clone per repository
 * at `<owner>+<name>/repo` (e.g. `git clone --bare https://github.com/boto/botocore boto+botocore/repo`).
 * What is read from those repositories is not committed here: it is written to `out-dir` (default
 * $CONTRACTS_SPECS, else ../shared/data/contracts beside the checkout), where ./contracts.mjs reads
 * it. Anthropic's (from the npm package) and the provenance are written to ./specs/ and committed.
 * The files are the source's own language (OpenAPI components, botocore shapes, proto descriptors,
 * the SDK's types as JSON Schema); ./schemas/ turns them into JSON Schema when tests run.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { refreshAnthropic } from './refresh/anthropic.mjs';
import { refreshBedrock } from './refresh/bedrock.mjs';
import { refreshGemini } from './refresh/gemini.mjs';
import { refreshOpenAi } from './refresh/openai.mjs';
import { mirrorReader } from './refresh/trim.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SPECS = join(HERE, 'specs');
const ROOT = join(HERE, '..', '..');
const MIRRORS = process.argv[2] ?? process.env.CONTRACTS_MIRRORS ?? '/work/.mirror';
const OUT = resolve(ROOT, process.argv[3] ?? process.env.CONTRACTS_SPECS ?? '../shared/data/contracts');

const fetched = new Date().toISOString().slice(0, 10);
const reader = mirrorReader(MIRRORS);
/** Each provider's refresh, and where its files go: OUT for what came from a mirror, SPECS for what is committed. */
const REFRESHES = {
  openai: [() => refreshOpenAi(reader, fetched), OUT],
  bedrock: [() => refreshBedrock(reader, fetched), OUT],
  gemini: [() => refreshGemini(reader, fetched), OUT],
  anthropic: [() => refreshAnthropic(ROOT, fetched), SPECS],
};

const provenance = {};
for (const [provider, [refresh, dir]] of Object.entries(REFRESHES)) {
  const { files, provenance: source } = refresh();
  const digests = {};
  mkdirSync(dir, { recursive: true });
  for (const [file, value] of Object.entries(files)) {
    const text = `${JSON.stringify(value, null, 1)}\n`;
    writeFileSync(join(dir, file), text);
    digests[file] = createHash('sha256').update(text).digest('hex');
  }
  provenance[provider] = { ...source, files: digests };
}
writeFileSync(join(SPECS, 'provenance.json'), `${JSON.stringify(provenance, null, 1)}\n`);
console.log(`descriptions written to ${OUT} (from mirrors) and ${SPECS} (Anthropic's, provenance)`);
