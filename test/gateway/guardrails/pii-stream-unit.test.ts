import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/guardrails/finding';
import { combineFinders } from '../../../src/guardrails/pii/combine';
import { sensitiveFinder } from '../../../src/guardrails/pii/finder';
import { Placeholders } from '../../../src/guardrails/pii/placeholders';
import { PEM_MAX_LENGTH } from '../../../src/guardrails/pii/private-key';
import { createStreamRedactor, createStreamRestorer } from '../../../src/guardrails/pii/stream-redactor';
import { ALL, redactStream, redactWhole } from './pii-helpers';

const SECRETS = [
  'sk-proj-Ab3dEf5hIjKlMnOpQrStUvWx12345_ab-CD',
  'sk-ant-api03-AbCdEf1234567890AbCdEfGh_ij-KL',
  'AKIAIOSFODNN7EXAMPLE',
  'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7b+/==\nabcDEF123\n-----END RSA PRIVATE KEY-----',
];
const PII = [
  'john.doe@example.com',
  '+44 20 7946 0958',
  '(555) 234-5678',
  '4111 1111 1111 1111',
  'DE89 3704 0044 0532 0130 00',
  '123-45-6789',
  '192.168.1.100',
  '2001:db8::1',
];

/** Every split of `text` into two chunks. */
const twoWay = (text: string) =>
  Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]);

describe('streamed redaction', () => {
  it('catches each secret split at every possible chunk boundary, exactly as whole-text redaction does', () => {
    for (const secret of SECRETS) {
      const text = `Here it is: ${secret}. Keep it safe.`;
      const whole = redactWhole(text);
      expect(whole).not.toContain(secret);
      for (const chunks of twoWay(text)) expect(redactStream(chunks), JSON.stringify(chunks)).toBe(whole);
    }
  });

  it('catches a key value after Bearer split anywhere, including between the key name and the value', () => {
    const text = 'Authorization: Bearer abcDEF123456ghiJKL789012mno\n';
    const whole = redactWhole(text);
    expect(whole).toBe('Authorization: Bearer [BEARER_TOKEN_1]\n');
    for (const chunks of twoWay(text)) expect(redactStream(chunks)).toBe(whole);
  });

  it('gives the whole-text result for every pair of chunk boundaries in a short text of every kind', () => {
    const text = `a@b.io 4111111111111111, 123-45-6789 +14155552671 AKIAIOSFODNN7EXAMPLE 10.0.0.1 ::1 x`;
    const whole = redactWhole(text);
    for (let i = 0; i <= text.length; i++)
      for (let j = i; j <= text.length; j++)
        expect(redactStream([text.slice(0, i), text.slice(i, j), text.slice(j)])).toBe(whole);
  });

  it('gives the whole-text result one character at a time', () => {
    const text = [...PII, ...SECRETS].join(' and then ');
    expect(redactStream([...text])).toBe(redactWhole(text));
  });

  it('gives the whole-text result for random texts and random chunkings (property)', () => {
    const fragment = fc.oneof(
      fc.constantFrom(
        ...PII,
        ...SECRETS,
        ' ',
        '. ',
        ', ',
        '\n',
        'call ',
        'token=',
        'Bearer ',
        '@',
        '-',
        '1',
        '+',
      ),
      fc.string({ unit: fc.constantFrom(...'ab1 .-@:+=(/)'), maxLength: 12 }),
    );
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 14 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (parts, cuts) => {
          const text = parts.join('');
          const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...at].map((from, k) => text.slice(from, at[k] ?? text.length));
          expect(redactStream(chunks)).toBe(redactWhole(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('lets ordinary prose out at once, holding back at most the word that could still grow', () => {
    const placeholders = new Placeholders();
    const r = createStreamRedactor({ finder: ALL, replace: (f, v) => placeholders.label(f.kind, v) });
    expect(r.push('The weather ')).toBe('The weather ');
    expect(r.push('is nice to')).toBe('is nice ');
    expect(r.push('day, and we ')).toBe('today, and we ');
    expect(r.push('write to jo')).toBe('write to ');
    expect(r.push('hn@example.c')).toBe('');
    expect(r.push('om and')).toBe('[EMAIL_1] ');
    expect(r.push(' go home')).toBe('and go ');
    expect(r.flush()).toBe('home');
    expect(r.findings).toBe(1);
  });

  it('holds an open key block up to its END line, and no longer than its cap', () => {
    const r = createStreamRedactor({ finder: ALL, replace: (f) => `<${f.kind}>` });
    expect(r.push('x -----BEGIN PRIVATE KEY-----\nMIIE')).toBe('x ');
    expect(r.push('vQIBADANBgkqhkiG9w0BAQEFAASC\n')).toBe('');
    expect(r.push('-----END PRIVATE KEY----- done')).toBe('<private_key> ');
    expect(r.flush()).toBe('done');
    // Past the cap the block's first PEM_MAX_LENGTH characters are one span and the rest passes.
    const open = createStreamRedactor({ finder: ALL, replace: (f) => `<${f.kind}>` });
    const line = `${'A'.repeat(63)}\n`;
    let out = open.push('-----BEGIN PRIVATE KEY-----\n');
    for (let i = 0; i < 200; i++) out += open.push(line);
    out += open.flush();
    expect(out.startsWith('<private_key>')).toBe(true);
    const whole = `-----BEGIN PRIVATE KEY-----\n${line.repeat(200)}`;
    const [span] = ALL.find(whole);
    expect(span!.end).toBeGreaterThan(8000);
    expect(span!.end).toBeLessThanOrEqual(PEM_MAX_LENGTH);
    expect(out).toBe(`<private_key>${whole.slice(span!.end)}`);
  });

  it('leaves values passed through `replace` as they are and counts them', () => {
    const r = createStreamRedactor({ finder: ALL, replace: (_f, v) => v });
    const text = 'mail a@b.io now';
    expect(r.push(text) + r.flush()).toBe(text);
    expect(r.findings).toBe(1);
  });

  it('works with a plain span finder (holding back its maxLength) combined with the settling one', () => {
    const deny = {
      maxLength: 7,
      find: (text: string): Finding[] => {
        const out: Finding[] = [];
        for (let i = text.indexOf('project'); i >= 0; i = text.indexOf('project', i + 1))
          out.push({ kind: 'deny', start: i, end: i + 7 });
        return out;
      },
    };
    const finder = combineFinders([sensitiveFinder(new Set(['email'])), deny]);
    const text = 'the project mail is a@b.io, project';
    const whole = redactWhole(text, finder);
    expect(whole).toBe('the [DENIED_1] mail is [EMAIL_1], [DENIED_1]');
    for (const chunks of twoWay(text)) expect(redactStream(chunks, finder)).toBe(whole);
    expect(redactStream(twoWay(text)[12]!, deny)).toBe(whole.replace('[EMAIL_1]', 'a@b.io'));
  });
});

describe('streamed restoration', () => {
  const placeholders = new Placeholders();
  placeholders.label('email', 'john@example.com');
  placeholders.label('openai_key', 'sk-proj-secret123');
  placeholders.label('deny', 'forbidden');

  const restoreStream = (chunks: readonly string[]) => {
    const r = createStreamRestorer(placeholders);
    let out = '';
    for (const c of chunks) out += r.push(c);
    return { out: out + r.flush(), restored: r.findings };
  };

  it('restores placeholders split at every possible chunk boundary', () => {
    const text = 'Reply to [EMAIL_1] with [OPENAI_KEY_1], not [EMAIL_9] or [DENIED_1] [x] [';
    const whole = placeholders.restore(text);
    expect(whole).toBe('Reply to john@example.com with sk-proj-secret123, not [EMAIL_9] or [DENIED_1] [x] [');
    for (const chunks of twoWay(text)) {
      const { out, restored } = restoreStream(chunks);
      expect(out).toBe(whole);
      expect(restored).toBe(2);
    }
  });

  it('holds back only a trailing [ that could still become a placeholder', () => {
    const r = createStreamRestorer(placeholders);
    expect(r.push('see [EMA')).toBe('see ');
    expect(r.push('IL_1] and [link](x) [')).toBe('john@example.com and [link](x) ');
    expect(r.push('not a placeholder')).toBe('[not a placeholder');
  });
});
