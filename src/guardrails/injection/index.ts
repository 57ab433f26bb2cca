/**
 * The prompt-injection / jailbreak detector: a linear model over hashed
 * character and word n-grams (features.ts) and injection cues (cues.ts),
 * scored over sliding windows (score.ts), with the trained weights and
 * default threshold from model.ts,
 * decoded once per isolate, on first use. No network, no dependency.
 *
 * Cost bound: one text is scanned over at most MAX_TEXT_SCAN UTF-16 units
 * (head and tail of a longer one), one request over at most MAX_REQUEST_SCAN
 * units in all, newest text first (the lead passes texts in conversation
 * order, so the latest user turn and tool results are the ones scanned when a
 * huge history exhausts the budget); `truncated` says when some text was cut
 * or skipped.
 */
import { decodeModel } from './model-codec';
import { SERIALISED_MODEL } from './model';
import { type InjectionModel, MAX_TEXT_SCAN, scoreText } from './score';

export { MAX_TEXT_SCAN } from './score';
export const MAX_REQUEST_SCAN = 4 * MAX_TEXT_SCAN;

/**
 * Decoded on first use, once per isolate: isolates whose keys never turn the detector on never hold its
 * 128 K-bucket weight table (nor pay for decoding it at start-up).
 */
let decoded: InjectionModel | null = null;
const model = (): InjectionModel => {
  decoded ??= decodeModel(SERIALISED_MODEL);
  return decoded;
};

/** The trained default: the lowest threshold whose cross-validated false-positive rate is within budget. */
export const INJECTION_THRESHOLD: number = SERIALISED_MODEL.threshold;

/** How likely `text` (one user turn or tool result) is an injection or jailbreak attempt, in [0, 1]. */
export function injectionScore(text: string): number {
  return scoreText(model(), text);
}

export interface InjectionVerdict {
  /** The highest score over the scanned texts (0 when there is nothing to scan). */
  readonly score: number;
  readonly fired: boolean;
  /** Some text was longer than its scan budget: only its head and tail (or nothing) were scanned. */
  readonly truncated: boolean;
}

/** The detector's verdict over several texts: the maximum score, fired when it reaches `threshold`. */
export function detectInjection(texts: readonly string[], threshold = INJECTION_THRESHOLD): InjectionVerdict {
  let budget = MAX_REQUEST_SCAN;
  let score = 0;
  let truncated = false;
  for (let i = texts.length - 1; i >= 0; i--) {
    const text = texts[i]!;
    const cap = Math.min(MAX_TEXT_SCAN, budget);
    if (text.length > cap) truncated = true;
    if (cap === 0) continue;
    score = Math.max(score, scoreText(model(), text, cap));
    budget -= Math.min(text.length, cap);
  }
  return { score, fired: score >= threshold, truncated };
}
