/** The on_unsupported decision (pure): nothing dropped or nobody refusing passes; otherwise a 400 naming every dropped field. */
import { describe, expect, it } from 'vitest';
import { KeyRecord } from '../../../src/core/key-record';
import {
  OnUnsupported,
  stricterOnUnsupported,
  UNSUPPORTED_FIELD,
  type UnsupportedPolicies,
  unsupportedRefusal,
} from '../../../src/core/unsupported-policy';

const DROP: UnsupportedPolicies = { key: 'drop', tenant: 'drop', route: 'drop' };

describe('unsupportedRefusal', () => {
  it('lets a request through when nothing would be dropped, whatever the policies say', () => {
    expect(
      unsupportedRefusal([], { key: 'refuse', tenant: 'refuse', route: 'refuse' }, 'x/y', 'openai'),
    ).toBe(null);
  });

  it('lets drops through when no policy refuses', () => {
    expect(unsupportedRefusal(['context_management', 'anthropic-beta'], DROP, 'x/y', 'openai')).toBe(null);
  });

  it.each([
    ['key', { ...DROP, key: 'refuse' }, "key's policy (on_unsupported: refuse) refuses"],
    ['tenant', { ...DROP, tenant: 'refuse' }, "tenant's policy (on_unsupported: refuse) refuses"],
    ['route', { ...DROP, route: 'refuse' }, "route's policy (on_unsupported: refuse) refuses"],
  ] as const)('refuses when the %s refuses, naming whose policy it is', (_who, policies, says) => {
    const err = unsupportedRefusal(['tools[web_search]'], policies, 'gpt-only/echo', 'openai');
    expect(err).not.toBe(null);
    expect(err?.status).toBe(400);
    expect(err?.code).toBe(UNSUPPORTED_FIELD);
    expect(err?.type).toBe('invalid_request_error');
    expect(err?.source).toBe('gateway');
    expect(err?.param).toBe('tools[web_search]');
    expect(err?.message).toContain(says);
    expect(err?.message).toContain("This field cannot be carried to 'gpt-only/echo'");
    expect(err?.message).toContain("openai format has no equivalent for it: 'tools[web_search]'");
  });

  it('names every dropped field, headers included, with the first as param, and every refusing policy', () => {
    const err = unsupportedRefusal(
      ['context_management', 'cache_control', 'anthropic-beta'],
      { key: 'refuse', tenant: 'drop', route: 'refuse' },
      'gemini/gemini-2.5-flash',
      'gemini',
    );
    expect(err?.param).toBe('context_management');
    expect(err?.message).toContain("'context_management', 'cache_control', 'anthropic-beta'");
    expect(err?.message).toContain('These fields cannot be carried');
    expect(err?.message).toContain("The key's and route's policies (on_unsupported: refuse) refuse");
    expect(err?.message).toContain('rather than send it without them');
  });
});

describe('stricterOnUnsupported', () => {
  it('lets refuse win wherever it is said', () => {
    expect(stricterOnUnsupported('drop', 'drop')).toBe('drop');
    expect(stricterOnUnsupported('refuse', 'drop')).toBe('refuse');
    expect(stricterOnUnsupported('drop', 'refuse')).toBe('refuse');
    expect(stricterOnUnsupported('refuse', 'refuse')).toBe('refuse');
  });

  it('accepts only drop and refuse as the setting', () => {
    expect(OnUnsupported.safeParse('refuse').success).toBe(true);
    expect(OnUnsupported.safeParse('block').success).toBe(false);
    expect(OnUnsupported.safeParse(null).success).toBe(false);
  });
});

describe('the key record', () => {
  it('reads a record cached before the setting existed as drop for the key and its tenant', () => {
    const legacy = KeyRecord.parse({
      id: 'k',
      tenantId: 't',
      status: 'active',
      models: null,
      expiresAt: null,
    });
    expect([legacy.onUnsupported, legacy.tenantOnUnsupported]).toEqual(['drop', 'drop']);
  });
});
