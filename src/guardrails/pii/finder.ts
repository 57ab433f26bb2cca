/**
 * The finder for a set of PII and secret kinds, built once per isolate per
 * set: `sensitiveFinder(new Set(['email', 'card']))` returns the same object
 * every time. Its maxLength is a real bound (8 KiB, a PEM block, when
 * private keys are on; a few hundred characters otherwise).
 */
import type { FindingKind } from '../finding';
import { bearerDetector } from './bearer';
import { cardDetector } from './card';
import { composeFinder, type SettlingFinder } from './compose';
import type { Detector } from './detector';
import { emailDetector } from './email';
import { ibanDetector } from './iban';
import { ipDetectors } from './ip';
import { jwtDetector } from './jwt';
import { phoneDetector } from './phone';
import { privateKeyDetector } from './private-key';
import { providerKeyDetectors } from './provider-keys';
import { ssnDetector } from './ssn';

/** Every detector, most specific first. */
export const ALL_DETECTORS: readonly Detector[] = [
  privateKeyDetector,
  jwtDetector,
  ...providerKeyDetectors,
  bearerDetector,
  ibanDetector,
  cardDetector,
  ssnDetector,
  emailDetector,
  ...ipDetectors,
  phoneDetector,
];

const memo = new Map<string, SettlingFinder>();

export function sensitiveFinder(kinds: ReadonlySet<FindingKind>): SettlingFinder {
  const key = [...kinds].sort().join(',');
  let finder = memo.get(key);
  if (!finder) {
    finder = composeFinder(ALL_DETECTORS.filter((d) => kinds.has(d.kind)));
    memo.set(key, finder);
  }
  return finder;
}
