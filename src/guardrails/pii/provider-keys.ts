/**
 * Credentials recognised by their issuer's prefix: OpenAI (`sk-`, `sk-proj-`,
 * `sk-svcacct-`, `sk-admin-`), Anthropic (`sk-ant-`), AWS access key ids
 * (`AKIA`/`ASIA` + 16), GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`
 * + 36 or more, `github_pat_`) and Slack tokens (`xoxa-`, `xoxb-`, `xoxp-`,
 * `xoxr-`, `xoxs-`). A span starts only where a run of the key's characters
 * starts, and keys with free-form bodies must look generated (letters and
 * digits, entropy ≥ 3 bits per character), so `sk-learn-is-a-python-package`
 * is not a key.
 */
import { charSet } from './char-set';
import { type Detector, patternDetector } from './detector';
import { looksRandom } from './entropy';

const KEY_CHARS = charSet('A-Za-z0-9_-');

/** Confirms a key whose body (after its `prefix` characters) looks generated. */
const randomAfter =
  (prefix: RegExp) =>
  (text: string, start: number, end: number): number => {
    prefix.lastIndex = start;
    const m = prefix.exec(text);
    const body = m ? start + m[0].length : start;
    return looksRandom(text, body, end) ? end : -1;
  };

const OPENAI_PREFIX = /sk-(?:proj-|svcacct-|admin-)?/y;
const openaiDetector = patternDetector({
  kind: 'openai_key',
  rank: 80,
  maxLength: 11 + 250,
  pattern: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,250}(?![A-Za-z0-9_-])/g,
  needs: ['sk-'],
  check: randomAfter(OPENAI_PREFIX),
  tail: { chars: KEY_CHARS, prefixes: ['sk-'] },
});

const ANTHROPIC_PREFIX = /sk-ant-(?:[a-z]{3,8}\d{2}-)?/y;
const anthropicDetector = patternDetector({
  kind: 'anthropic_key',
  rank: 85,
  maxLength: 7 + 250,
  pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,250}(?![A-Za-z0-9_-])/g,
  needs: ['sk-ant-'],
  check: randomAfter(ANTHROPIC_PREFIX),
  tail: { chars: KEY_CHARS, prefixes: ['sk-ant-'] },
});

const awsDetector = patternDetector({
  kind: 'aws_access_key',
  rank: 80,
  maxLength: 20,
  needs: ['AKIA', 'ASIA'],
  pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  tail: { chars: charSet('A-Za-z0-9'), prefixes: ['AKIA', 'ASIA'] },
});

const githubDetector = patternDetector({
  kind: 'github_token',
  rank: 80,
  maxLength: 11 + 251,
  needs: ['gh', 'github_pat_'],
  pattern:
    /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,251})(?![A-Za-z0-9_])/g,
  tail: {
    chars: charSet('A-Za-z0-9_'),
    prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  },
});

const SLACK_PREFIX = /xox[abprs]-/y;
const slackDetector = patternDetector({
  kind: 'slack_token',
  rank: 80,
  maxLength: 5 + 250,
  pattern: /(?<![A-Za-z0-9-])xox[abprs]-\d[A-Za-z0-9-]{14,249}(?![A-Za-z0-9-])/g,
  needs: ['xox'],
  check: randomAfter(SLACK_PREFIX),
  tail: { chars: charSet('A-Za-z0-9-'), prefixes: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxr-', 'xoxs-'] },
});

export const providerKeyDetectors: readonly Detector[] = [
  openaiDetector,
  anthropicDetector,
  awsDetector,
  githubDetector,
  slackDetector,
];
