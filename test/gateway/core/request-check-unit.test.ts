import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../../src/core/endpoints';
import { certainlyValid } from '../../../src/core/request-check';
import { REQUEST_SCHEMAS } from '../../../src/core/request-schemas';

// Values near every boundary the schemas draw (both sides of each), plus wrong types.
const edgy = fc.oneof(
  fc.constantFrom(null, undefined, true, false, '', 'x', 0, 1, -1, 2, 128, 129, 1.5, 0.5, 65_536, 65_537),
  fc.constantFrom(10_000_000, 10_000_001, 2 ** 53, Number.POSITIVE_INFINITY, Number.NaN, -0),
  fc.constantFrom('float', 'base64', 'hex', [], {}, [{}], ['a'], [1, 2], [[1], [2]], [[]], [1, 'a']),
  fc.double(),
  fc.integer(),
  fc.string(),
);
/** Mostly a valid value, sometimes anything near a boundary. */
const mostly = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: edgy });
const message = mostly(
  fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.string() }, { requiredKeys: ['role'] }),
);
const body = fc.record(
  {
    model: mostly(fc.constant('mock/echo')),
    messages: mostly(fc.array(message, { minLength: 1, maxLength: 3 })),
    input: mostly(fc.oneof(fc.string(), fc.array(fc.string(), { minLength: 1, maxLength: 2 }))),
    stream: mostly(fc.boolean()),
    stream_options: mostly(fc.record({ include_usage: mostly(fc.boolean()) }, { requiredKeys: [] })),
    max_tokens: mostly(fc.constantFrom(1, 16, 10_000_000, 0, 10_000_001, 3.5)),
    max_completion_tokens: mostly(fc.constantFrom(1, 16, 10_000_000, 0, 10_000_001, 3.5)),
    n: mostly(fc.constantFrom(1, 2, 128, 0, 129, 1.5)),
    temperature: mostly(fc.constantFrom(0, 0.7, 1, 1.0001, 1.5, 2, 2.0001, -0.1)),
    tools: mostly(fc.array(fc.constant({ type: 'function' }), { maxLength: 2 })),
    system: mostly(fc.oneof(fc.string(), fc.array(fc.constant({ type: 'text' }), { maxLength: 2 }))),
    dimensions: mostly(fc.constantFrom(1, 8, 65_536, 0, 65_537, 2.5)),
    encoding_format: mostly(fc.constantFrom('float', 'base64')),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

describe('the fast acceptance check', () => {
  for (const endpoint of ['chat', 'messages', 'embeddings'] as const satisfies readonly Endpoint[]) {
    it(`never accepts a ${endpoint} body its schema refuses, and accepted bodies read the same`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(body, (raw) => {
          const fast = certainlyValid(endpoint, raw as Record<string, unknown>);
          const schema = REQUEST_SCHEMAS[endpoint].safeParse(raw);
          if (fast) {
            accepted += 1;
            expect(schema.success).toBe(true);
            expect(schema.data).toEqual(raw);
          }
        }),
        { numRuns: 4_000 },
      );
      // The generator reaches valid bodies often enough for the property to mean something (about 100
      // of 4,000 for chat, the rarest; 40 is six standard deviations below that).
      expect(accepted).toBeGreaterThan(40);
    });
  }

  it('accepts the everyday valid requests as they are', () => {
    const chat = {
      model: 'mock/echo',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 10,
      stream: true,
    };
    expect(certainlyValid('chat', chat)).toBe(true);
    expect(certainlyValid('messages', { ...chat, system: 'be brief' })).toBe(true);
    expect(certainlyValid('embeddings', { model: 'mock/e', input: ['a', 'b'], dimensions: 8 })).toBe(true);
    expect(certainlyValid('messages', { model: 'm', messages: [{ role: 'user' }] })).toBe(false); // no max_tokens
  });
});
