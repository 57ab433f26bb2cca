/**
 * Refreshes the providers' API descriptions the contract tests read, each made from a package of
 * the npm registry installed as a devDependency (package.json pins them), keeping only what the
 * tests need, and records each one's package@version and the SHA-256 of the file written in
 * ./specs/provenance.json. Everything is written to ./specs/ and committed.
 *
 *   npm run contracts:refresh
 *
 * | provider  | package                          | read from                                    |
 * | OpenAI    | openai                           | its TypeScript types (Stainless, from OpenAPI) |
 * | Anthropic | @anthropic-ai/sdk                | its TypeScript types (Stainless, from OpenAPI) |
 * | Gemini    | @google-ai/generativelanguage    | the API's .proto files it ships              |
 * | Bedrock   | @aws-sdk/client-bedrock-runtime  | its Smithy schema objects, enums from its types |
 *
 * It takes half a minute (the TypeScript compiler runs over each SDK's types), which is why the
 * output is committed rather than made when the tests run. After updating one of those packages,
 * run it, then `npm run test:contracts`, and commit ./specs/.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { refreshAnthropic } from './refresh/anthropic.mjs';
import { refreshBedrock } from './refresh/bedrock.mjs';
import { refreshGemini } from './refresh/gemini.mjs';
import { refreshOpenAi } from './refresh/openai.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SPECS = join(HERE, 'specs');
const ROOT = join(HERE, '..', '..');

const fetched = new Date().toISOString().slice(0, 10);
const REFRESHES = {
  openai: refreshOpenAi,
  anthropic: refreshAnthropic,
  gemini: refreshGemini,
  bedrock: refreshBedrock,
};

const provenance = {};
for (const [provider, refresh] of Object.entries(REFRESHES)) {
  const { files, provenance: source } = await refresh(ROOT, fetched);
  const digests = {};
  for (const [file, value] of Object.entries(files)) {
    const text = `${JSON.stringify(value, null, 1)}\n`;
    writeFileSync(join(SPECS, file), text);
    digests[file] = createHash('sha256').update(text).digest('hex');
  }
  provenance[provider] = { ...source, files: digests };
}
writeFileSync(join(SPECS, 'provenance.json'), `${JSON.stringify(provenance, null, 1)}\n`);
console.log(`descriptions and their provenance written to ${SPECS}`);
