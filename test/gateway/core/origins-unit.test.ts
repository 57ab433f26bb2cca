import { describe, expect, it } from 'vitest';
import { AllowedOrigins, MAX_ORIGINS, Origin, originAllowed } from '../../../src/core/origins';

describe('Origin', () => {
  it.each([
    'https://app.example.com',
    'http://localhost:5173',
    'https://app.example.com:8443',
    'http://127.0.0.1:3000',
    'http://[::1]:8080',
  ])('accepts the serialised origin %s', (value) => {
    expect(Origin.safeParse(value).success).toBe(true);
  });

  it.each([
    ['https://app.example.com/', 'a trailing slash'],
    ['https://app.example.com/chat', 'a path'],
    ['https://app.example.com?x=1', 'a query'],
    ['https://App.Example.com', 'an uppercase host'],
    ['https://app.example.com:443', "the scheme's default port"],
    ['https://*.example.com', 'a wildcard'],
    ['*', 'a bare wildcard'],
    ['null', 'the null origin'],
    ['app.example.com', 'no scheme'],
    ['ftp://app.example.com', 'another scheme'],
    ['https://user:pw@app.example.com', 'userinfo'],
    ['', 'nothing'],
  ])('refuses %s (%s)', (value) => {
    expect(Origin.safeParse(value).success).toBe(false);
  });

  it('suggests the serialised form when the value names one', () => {
    const result = Origin.safeParse('https://App.example.com/');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain("did you mean 'https://app.example.com'?");
  });
});

describe('AllowedOrigins', () => {
  it(`holds at most ${MAX_ORIGINS} origins`, () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `https://app${i}.example.com`);
    expect(AllowedOrigins.safeParse(list(MAX_ORIGINS)).success).toBe(true);
    expect(AllowedOrigins.safeParse(list(MAX_ORIGINS + 1)).success).toBe(false);
  });

  it('refuses a duplicate', () => {
    expect(AllowedOrigins.safeParse(['https://a.example', 'https://a.example']).success).toBe(false);
  });
});

describe('originAllowed', () => {
  const list = ['https://app.example.com', 'http://localhost:5173'];
  it('matches exactly, never by prefix or suffix', () => {
    expect(originAllowed(list, 'https://app.example.com')).toBe(true);
    expect(originAllowed(list, 'http://localhost:5173')).toBe(true);
    expect(originAllowed(list, 'https://app.example.com.evil.test')).toBe(false);
    expect(originAllowed(list, 'http://app.example.com')).toBe(false);
    expect(originAllowed(list, 'http://localhost:5174')).toBe(false);
    expect(originAllowed([], 'https://app.example.com')).toBe(false);
  });
});
