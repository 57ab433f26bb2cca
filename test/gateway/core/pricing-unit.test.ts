import { describe, expect, it } from 'vitest';
import { PRICING, Pricing } from '../../../src/core/pricing';
import data from '../../../src/core/pricing.json';

describe('the shipped price table', () => {
  it('holds a finite, non-negative input, output and cached price for the default and every model', () => {
    expect(Pricing.safeParse(data).success).toBe(true);
  });

  it('is pricing.json as the schema reads it', () => {
    expect(PRICING).toEqual(Pricing.parse(data));
  });
});
