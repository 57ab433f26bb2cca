import { describe, expect, it } from 'vitest';
import { cardNetwork } from '../../../src/guardrails/pii/card-networks';
import { ibanChecksumValid, luhnValid } from '../../../src/guardrails/pii/checksums';
import { looksRandom, shannonEntropy } from '../../../src/guardrails/pii/entropy';

const luhn = (s: string) => luhnValid(s, 0, s.length);
const iban = (s: string) => ibanChecksumValid(s, 0, s.length);

describe('Luhn', () => {
  it('accepts the test numbers of each network and refuses each one off by one in its last digit', () => {
    for (const n of [
      '4111111111111111',
      '5555555555554444',
      '378282246310005',
      '6011111111111117',
      '3530111333300000',
    ]) {
      expect(luhn(n)).toBe(true);
      const last = Number(n.at(-1));
      expect(luhn(n.slice(0, -1) + ((last + 1) % 10))).toBe(false);
    }
  });

  it('skips separators', () => {
    expect(luhn('4111 1111-1111 1111')).toBe(true);
  });
});

describe('IBAN mod 97', () => {
  it('accepts valid IBANs of several countries, spaced or not, and refuses one changed digit', () => {
    const valid = [
      'DE89370400440532013000',
      'GB82WEST12345698765432',
      'FR1420041010050500013M02606',
      'NL91ABNA0417164300',
      'BE68539007547034',
      'CH9300762011623852957',
      'DE89 3704 0044 0532 0130 00',
    ];
    for (const v of valid) expect(iban(v), v).toBe(true);
    expect(iban('DE89370400440532013001')).toBe(false);
    expect(iban('DE88370400440532013000')).toBe(false);
    expect(iban('GB82WEST12345698765433')).toBe(false);
  });

  it('refuses characters outside A–Z, 0–9', () => {
    expect(iban('DE89-370400440532013000')).toBe(false);
  });
});

describe('card networks', () => {
  it('knows the IIN ranges and lengths, and refuses an unknown prefix or a wrong length', () => {
    expect(cardNetwork('4111111111111111')).toBe('visa');
    expect(cardNetwork('2223003122003222')).toBe('mastercard');
    expect(cardNetwork('378282246310005')).toBe('amex');
    expect(cardNetwork('3782822463100050')).toBeNull();
    expect(cardNetwork('9111111111111111')).toBeNull();
    expect(cardNetwork('1234567812345670')).toBeNull();
  });
});

describe('entropy', () => {
  it('measures bits per character', () => {
    expect(shannonEntropy('aaaa', 0, 4)).toBe(0);
    expect(shannonEntropy('abcd', 0, 4)).toBeCloseTo(2);
  });

  it('calls generated strings random and words not', () => {
    expect(looksRandom('Zx81aQ03mnBv77LpQ2sK', 0, 20)).toBe(true);
    expect(looksRandom('correct-horse-battery-staple', 0, 28)).toBe(false);
    expect(looksRandom('aaaaaaaaaaaaaaaaaaa1', 0, 20)).toBe(false);
  });
});
