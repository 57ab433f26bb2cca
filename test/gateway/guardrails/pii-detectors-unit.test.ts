import { describe, expect, it } from 'vitest';
import { sensitiveFinder } from '../../../src/guardrails/pii/finder';
import { PEM_MAX_LENGTH } from '../../../src/guardrails/pii/private-key';
import { ALL, found } from './pii-helpers';

/** The values found in `text`, of any kind. */
const values = (text: string) => found(text).map(([, v]) => v);

describe('e-mail addresses', () => {
  it('finds addresses and leaves a trailing sentence dot out', () => {
    expect(found('Write to john.doe+news@mail.example.co.uk. Or a_b@x.io!')).toEqual([
      ['email', 'john.doe+news@mail.example.co.uk'],
      ['email', 'a_b@x.io'],
    ]);
  });

  it('does not take file names, handles or package versions for addresses', () => {
    expect(values('icon@2x.png, @username, npm i react@18.2.0, user@localhost')).toEqual([]);
  });
});

describe('phone numbers', () => {
  it('finds international, North American and national forms', () => {
    const phones = [
      '+1 415 555 2671',
      '+14155552671',
      '+44 20 7946 0958',
      '+33 1 23 45 67 89',
      '(555) 234-5678',
      '555-234-5678',
      '555.234.5678',
      '1-800-555-0199',
      '020 7946 0958',
      '01 23 45 67 89',
      '(030) 1234567',
    ];
    for (const p of phones) expect(found(`call ${p} today`), p).toEqual([['phone', p]]);
  });

  it('does not take dates, versions, prices, times, order numbers or bare digit runs for phones', () => {
    const negatives = [
      'on 2024-01-15 at 10:30',
      'on 15/01/2024 and 01.02.2024 10 people',
      'version 1.2.3 or v10.0.19041',
      'costs $1,234.56 or 1 234,56 €',
      'order #5551234567 and order 5551234567',
      'ref 123-456-7890 (area code cannot start with 1)',
      'quantity 12 345 678',
      'ratio 0.5551234567',
    ];
    for (const n of negatives) expect(values(n), n).toEqual([]);
  });

  it('does not start a phone inside a longer run of number groups', () => {
    expect(values('DE89 3704 0044 0532 0130 01')).toEqual([]);
  });
});

describe('payment cards', () => {
  const cards = [
    '4111111111111111',
    '4111 1111 1111 1111',
    '4111-1111-1111-1111',
    '5555555555554444',
    '2223003122003222',
    '378282246310005',
    '3782 822463 10005',
    '6011111111111117',
    '30569309025904',
    '3530111333300000',
    '6200000000000005',
  ];

  it('finds Luhn-valid numbers of known networks, solid or grouped', () => {
    for (const c of cards) expect(found(`card ${c}, thanks`), c).toEqual([['card', c]]);
  });

  it('refuses every card with its last digit off by one', () => {
    for (const c of cards) {
      const last = Number(c.at(-1));
      const wrong = c.slice(0, -1) + ((last + 1) % 10);
      expect(
        found(`card ${wrong}, thanks`).filter(([k]) => k === 'card'),
        wrong,
      ).toEqual([]);
    }
  });

  it('refuses Luhn-valid numbers outside every IIN range and mixed separators', () => {
    expect(values('id 1234567812345670 and 4111-1111 1111-1111')).toEqual([]);
  });

  it('finds a grouped card followed by another number', () => {
    expect(found('4111 1111 1111 1111 123')).toEqual([['card', '4111 1111 1111 1111']]);
  });
});

describe('IBANs', () => {
  const ibans = [
    'DE89370400440532013000',
    'DE89 3704 0044 0532 0130 00',
    'GB82WEST12345698765432',
    'GB82 WEST 1234 5698 7654 32',
    'FR1420041010050500013M02606',
    'NL91ABNA0417164300',
    'BE68 5390 0754 7034',
    'CH9300762011623852957',
  ];

  it('finds valid IBANs of several countries, spaced or not', () => {
    for (const i of ibans) expect(found(`pay to ${i}.`), i).toEqual([['iban', i]]);
  });

  it('refuses a changed check digit, a wrong length and an unknown country', () => {
    for (const bad of [
      'DE89370400440532013001',
      'DE8937040044053201300',
      'DE893704004405320130000',
      'ZZ89370400440532013000',
    ])
      expect(
        found(`pay to ${bad}.`).filter(([k]) => k === 'iban'),
        bad,
      ).toEqual([]);
  });

  it('ends a grouped IBAN at its length when another group follows', () => {
    expect(found('BE68 5390 0754 7034 2024')).toEqual([['iban', 'BE68 5390 0754 7034']]);
  });
});

describe('US SSNs', () => {
  it('finds AAA-GG-SSSS', () => {
    expect(found('SSN 123-45-6789.')).toEqual([['ssn', '123-45-6789']]);
  });

  it('refuses the ranges never issued', () => {
    for (const bad of [
      '000-12-3456',
      '666-12-3456',
      '900-12-3456',
      '999-12-3456',
      '123-00-4567',
      '123-45-0000',
    ])
      expect(values(`SSN ${bad}`), bad).toEqual([]);
  });

  it('refuses undashed or embedded forms', () => {
    expect(values('SSN 123456789, 123-45-6789-1, x123-45-6789')).toEqual([]);
  });
});

describe('IP addresses', () => {
  it('finds IPv4 and IPv6, compressed or embedding IPv4', () => {
    const ips = [
      '192.168.1.100',
      '8.8.8.8',
      '2001:db8::1',
      '::1',
      'fe80::1ff:fe23:4567:890a',
      '::ffff:192.0.2.1',
    ];
    for (const ip of ips) expect(found(`host ${ip} is up`), ip).toEqual([['ip', ip]]);
    expect(found('2001:0db8:85a3:0000:0000:8a2e:0370:7334')).toEqual([
      ['ip', '2001:0db8:85a3:0000:0000:8a2e:0370:7334'],
    ]);
  });

  it('refuses out-of-range octets, versions, times, MAC addresses and scope operators', () => {
    const negatives = [
      '300.1.1.1',
      '1.2.3.256',
      '1.2.3',
      'version 1.2.3.4',
      'v1.2.3.4',
      '10:30:45',
      '00:1A:2B:3C:4D:5E',
      'std::vector and Abc::Def',
      '1:2:3:4:5:6:7:8:9',
    ];
    for (const n of negatives) expect(values(n), n).toEqual([]);
  });
});

describe('credentials with a known prefix', () => {
  const keys: [string, string][] = [
    ['openai_key', 'sk-Ab3dEf5hIjKlMnOpQrStUvWx12345678901234567890AbCd'],
    ['openai_key', 'sk-proj-Ab3dEf5hIjKlMnOpQrStUvWx12345_ab-CD'],
    ['anthropic_key', 'sk-ant-api03-AbCdEf1234567890AbCdEfGh_ij-KL'],
    ['aws_access_key', 'AKIAIOSFODNN7EXAMPLE'],
    ['aws_access_key', 'ASIAY34FZKBOKMUTVV7A'],
    ['github_token', 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'],
    [
      'github_token',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUV',
    ],
    ['slack_token', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx'],
    ['slack_token', 'xoxp-1234567890-0987654321-abcdef123456'],
  ];

  it('finds each kind, quoted, in an env line or in prose', () => {
    for (const [kind, key] of keys) {
      expect(found(`use ${key} now`), key).toEqual([[kind, key]]);
      expect(found(`X="${key}"`), key).toEqual([[kind, key]]);
    }
  });

  it('refuses prefixed words that are not generated, and keys glued to other characters', () => {
    const negatives = [
      'sk-learn-is-a-python-package-for-ml',
      'task-AbCdEf1234567890AbCdEfGh',
      'AKIAIOSFODNN7EXAMPL',
      'xAKIAIOSFODNN7EXAMPLE',
      'ghp_short123',
      'xoxb-not-a-real-slack-token',
    ];
    for (const n of negatives) expect(values(n), n).toEqual([]);
  });
});

describe('JWTs', () => {
  const jwt =
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

  it('finds a token whose header is JSON with alg, with or without a signature, before a full stop', () => {
    expect(found(`token ${jwt}.`)).toEqual([['jwt', jwt]]);
    const unsigned = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0NTY3ODkwIn0.';
    expect(found(`token ${unsigned} ok`)).toEqual([['jwt', unsigned]]);
  });

  it('refuses a header without alg or not JSON', () => {
    expect(values('eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc')).toEqual([]);
    expect(values('eyJnotjsonatall.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc')).toEqual([]);
  });
});

describe('private key blocks', () => {
  const block =
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7b+/==\nabcDEF123\n-----END RSA PRIVATE KEY-----';

  it('finds a whole block, BEGIN to END', () => {
    expect(found(`key:\n${block}\nthanks`)).toEqual([['private_key', block]]);
    const pkcs8 = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';
    expect(found(pkcs8)).toEqual([['private_key', pkcs8]]);
  });

  it('leaves public keys and certificates alone', () => {
    expect(values('-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----')).toEqual([]);
  });

  it('redacts an unterminated block from BEGIN over its body, and stops at the cap', () => {
    const open =
      '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/PuoAoGCCqGSM49';
    expect(found(`${open}\n(truncated)`)).toEqual([['private_key', `${open}\n`]]);
    const long = `-----BEGIN PRIVATE KEY-----\n${'A'.repeat(20_000)}\n-----END PRIVATE KEY-----`;
    const spans = ALL.find(long);
    expect(spans[0]).toMatchObject({ kind: 'private_key', start: 0 });
    expect(spans[0]!.end).toBeLessThanOrEqual(PEM_MAX_LENGTH);
  });
});

describe('high-entropy credentials after a key name', () => {
  it('finds the value after Bearer or a key assignment, and keeps the key name readable', () => {
    expect(found('Authorization: Bearer abcDEF123456ghiJKL789012mno')).toEqual([
      ['bearer_token', 'abcDEF123456ghiJKL789012mno'],
    ]);
    expect(found('{"client_secret": "Zx81aQ03mnBv77LpQ2sK"}')).toEqual([
      ['bearer_token', 'Zx81aQ03mnBv77LpQ2sK'],
    ]);
    expect(found('API_KEY=Zx81aQ03mnBv77LpQ2sK/+a==, next')).toEqual([
      ['bearer_token', 'Zx81aQ03mnBv77LpQ2sK/+a=='],
    ]);
    expect(found('token: 3f2a9c8d7e6b5a4c3d2e1f0a9b8c7d6e5f4a3b2c.')).toEqual([
      ['bearer_token', '3f2a9c8d7e6b5a4c3d2e1f0a9b8c7d6e5f4a3b2c'],
    ]);
  });

  it('leaves hashes, UUIDs and words alone when no key name precedes them', () => {
    const negatives = [
      'commit 3f2a9c8d7e6b5a4c3d2e1f0a9b8c7d6e5f4a3b2c fixed it',
      'id 123e4567-e89b-12d3-a456-426614174000',
      'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'password=correct-horse-battery-staple',
      'token: thisIsAVeryLongIdentifierName',
      'the token limit is 4096',
      'monkey=Zx81aQ03mnBv77LpQ2sK',
    ];
    for (const n of negatives) expect(values(n), n).toEqual([]);
  });

  it('prefers the specific kind when a known key follows Bearer', () => {
    expect(found('Bearer sk-proj-Ab3dEf5hIjKlMnOpQrStUvWx12345_ab-CD')).toEqual([
      ['openai_key', 'sk-proj-Ab3dEf5hIjKlMnOpQrStUvWx12345_ab-CD'],
    ]);
  });
});

describe('the finder', () => {
  it('is built once per kind set', () => {
    expect(sensitiveFinder(new Set(['email', 'card']))).toBe(sensitiveFinder(new Set(['card', 'email'])));
  });

  it('finds only the kinds it was built for', () => {
    const text = 'mail a@b.io, card 4111111111111111, key AKIAIOSFODNN7EXAMPLE';
    expect(found(text, sensitiveFinder(new Set(['card'])))).toEqual([['card', '4111111111111111']]);
    expect(found(text, sensitiveFinder(new Set(['aws_access_key', 'email'])))).toEqual([
      ['email', 'a@b.io'],
      ['aws_access_key', 'AKIAIOSFODNN7EXAMPLE'],
    ]);
  });

  it('reports sorted, non-overlapping spans no longer than maxLength', () => {
    const text =
      'a@b.io 4111 1111 1111 1111 DE89 3704 0044 0532 0130 00 +44 20 7946 0958 AKIAIOSFODNN7EXAMPLE 10.0.0.1 '.repeat(
        3,
      );
    const spans = ALL.find(text);
    expect(spans).toHaveLength(18);
    for (let i = 0; i < spans.length; i++) {
      expect(spans[i]!.end - spans[i]!.start).toBeLessThanOrEqual(ALL.maxLength);
      if (i > 0) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
    }
    expect(ALL.maxLength).toBe(PEM_MAX_LENGTH);
    expect(sensitiveFinder(new Set(['email', 'phone'])).maxLength).toBeLessThan(1000);
  });
});
