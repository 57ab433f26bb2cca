/** The JSON size bound the batcher and the message fit check before serialising an event. */
import { describe, expect, it } from 'vitest';
import { jsonBytesBound } from '../../../../src/logs/produce/json-bound';
import { jsonBytes } from '../../../../src/logs/produce/normalise';
import { logEvent } from '../../log-fixtures';

describe('jsonBytesBound', () => {
  it('is exact for strings of printable ASCII without quotes or backslashes', () => {
    for (const text of ['', 'req_0123-abcd', 'openai/gpt-4o-mini', ' !#[]~{}']) {
      expect(jsonBytesBound(text)).toBe(jsonBytes(text));
    }
  });

  it('is never below the UTF-8 size of the JSON, whatever the characters and numbers', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const units = [
      'x',
      '"',
      '\\',
      '\u0001',
      '\u001f',
      '\u007f',
      'é',
      '日',
      '😀',
      '\ud800',
      '\udc00',
      '\u2028',
    ];
    const str = () =>
      Array.from({ length: Math.floor(rand() * 40) }, () => units[Math.floor(rand() * 12)]).join('');
    const numbers = [
      0,
      -0,
      1,
      -2.2250738585072014e-308,
      Number.MAX_VALUE,
      -Number.MIN_VALUE,
      2 ** 53,
      0.1 + 0.2,
    ];
    const num = () => numbers[Math.floor(rand() * numbers.length)]!;
    for (let i = 0; i < 500; i++) {
      const value = {
        [str()]: str(),
        n: num(),
        list: [str(), num(), null, true, undefined, { [str()]: [num(), str()] }],
        gone: undefined,
        event: logEvent({ model: str(), metadata: { [str()]: str(), k: num() } }),
      };
      expect(jsonBytesBound(value)).toBeGreaterThanOrEqual(jsonBytes(value));
    }
  });

  it('stays close to the exact size for a usual event', () => {
    const event = logEvent();
    expect(jsonBytesBound(event)).toBeGreaterThanOrEqual(jsonBytes(event));
    expect(jsonBytesBound(event)).toBeLessThan(jsonBytes(event) + 600);
  });
});
