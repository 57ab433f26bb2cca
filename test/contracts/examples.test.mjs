/**
 * The examples the descriptions carry, read by our codecs: OpenAI's document gives a response
 * for each chat completion example (x-oaiMeta), complete answers and one stream of chunks, and the
 * OpenAI codec must read each. They are not held to the document's own schemas, which they predate
 * (no `refusal`, a null `system_fingerprint`). Blocks elided with `....` are not JSON and are
 * skipped; the embeddings example is elided inside its vector, so it is not used. The other
 * descriptions carry no response examples.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { missing } from './contracts.mjs';
import { loadSubjects } from './load.mjs';
import { readSpec } from './specs.mjs';

const { UPSTREAM_CODECS } = await loadSubjects();
const skip = missing('openai') ?? false;
const examples = skip ? { chat: [] } : readSpec('openai', 'openai-examples.json');
const codec = UPSTREAM_CODECS.openai;

/** The JSON blocks of an example response (a stream's chunks are separated by blank lines). */
function blocks(text) {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block.startsWith('{'))
    .map((block) => JSON.parse(block));
}

describe("openai: the description's chat examples", { skip }, () => {
  it('carries examples to check', () => {
    assert.ok(examples.chat.length >= 3, `${examples.chat.length} chat examples`);
  });
  for (const { title, response } of examples.chat) {
    it(title, () => {
      const chunks = blocks(response);
      assert.ok(chunks.length > 0, 'at least one JSON block');
      if (chunks[0].object === 'chat.completion.chunk') {
        const decoder = codec.streamDecoder();
        const events = [];
        for (const chunk of chunks) {
          const decoded = decoder.decode({ event: null, data: JSON.stringify(chunk) });
          assert.notEqual(decoded, 'malformed', JSON.stringify(chunk));
          events.push(...decoded);
        }
        assert.ok(
          events.some((event) => event.type === 'finish'),
          'the stream ends with a finish',
        );
        return;
      }
      const [body] = chunks;
      const read = codec.decodeResponse(body);
      assert.equal(read.id, body.id);
      assert.ok(read.content.length > 0 && read.usage !== null);
    });
  }
});
