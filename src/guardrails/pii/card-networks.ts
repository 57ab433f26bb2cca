/**
 * Issuer identification number (IIN) ranges of the card networks and the
 * lengths each issues: a Luhn-valid number outside every known range, or of a
 * length its network never issues, is not taken for a card. Ranges are
 * inclusive and compared on as many leading digits as they have.
 */

interface Network {
  readonly name: string;
  /** [low, high] on the first `low.length` digits. */
  readonly ranges: readonly (readonly [string, string])[];
  readonly lengths: readonly number[];
}

const SIXTEEN_TO_NINETEEN = [16, 17, 18, 19];

export const CARD_NETWORKS: readonly Network[] = [
  { name: 'visa', ranges: [['4', '4']], lengths: [13, 16, 19] },
  {
    name: 'mastercard',
    ranges: [
      ['51', '55'],
      ['2221', '2720'],
    ],
    lengths: [16],
  },
  {
    name: 'amex',
    ranges: [
      ['34', '34'],
      ['37', '37'],
    ],
    lengths: [15],
  },
  {
    name: 'discover',
    ranges: [
      ['6011', '6011'],
      ['644', '649'],
      ['65', '65'],
    ],
    lengths: SIXTEEN_TO_NINETEEN,
  },
  {
    name: 'diners',
    ranges: [
      ['300', '305'],
      ['36', '36'],
      ['38', '39'],
    ],
    lengths: [14, 15, 16, 17, 18, 19],
  },
  { name: 'jcb', ranges: [['3528', '3589']], lengths: SIXTEEN_TO_NINETEEN },
  { name: 'unionpay', ranges: [['62', '62']], lengths: SIXTEEN_TO_NINETEEN },
  { name: 'mir', ranges: [['2200', '2204']], lengths: SIXTEEN_TO_NINETEEN },
  {
    name: 'maestro',
    ranges: [
      ['5018', '5018'],
      ['5020', '5020'],
      ['5038', '5038'],
      ['5893', '5893'],
      ['6304', '6304'],
      ['6759', '6759'],
      ['6761', '6763'],
    ],
    lengths: [13, 14, 15, 16, 17, 18, 19],
  },
];

/** The network that issues `digits` (a string of 13–19 digits) at its length, or null. */
export function cardNetwork(digits: string): string | null {
  for (const n of CARD_NETWORKS) {
    if (!n.lengths.includes(digits.length)) continue;
    for (const [low, high] of n.ranges) {
      const head = digits.slice(0, low.length);
      if (head >= low && head <= high) return n.name;
    }
  }
  return null;
}
