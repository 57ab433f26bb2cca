import { describe, expect, it } from 'vitest';
import { Placeholders, restorable } from '../../../src/guardrails/pii/placeholders';
import { redactText, scanText } from '../../../src/guardrails/pii/redact';
import { ALL } from './pii-helpers';

describe('placeholders', () => {
  it('numbers values per kind from 1 and gives the same value the same label', () => {
    const p = new Placeholders();
    expect(p.label('email', 'a@b.io')).toBe('[EMAIL_1]');
    expect(p.label('card', '4111111111111111')).toBe('[CARD_1]');
    expect(p.label('email', 'c@d.io')).toBe('[EMAIL_2]');
    expect(p.label('email', 'a@b.io')).toBe('[EMAIL_1]');
    expect(p.label('openai_key', 'sk-x')).toBe('[OPENAI_KEY_1]');
    expect(p.size).toBe(4);
    expect(p.counts()).toEqual({ email: 2, card: 1, openai_key: 1 });
  });

  it('keeps a value found under two kinds apart', () => {
    const p = new Placeholders();
    expect(p.label('phone', '555-234-5678')).toBe('[PHONE_1]');
    expect(p.label('deny', '555-234-5678')).toBe('[DENIED_1]');
  });

  it('restores its own labels, leaves unknown ones and never restores deny-list matches', () => {
    const p = new Placeholders();
    p.label('email', 'a@b.io');
    p.label('deny', 'project-x');
    expect(restorable('deny')).toBe(false);
    expect(p.restore('to [EMAIL_1], not [EMAIL_2] nor [DENIED_1]; [EMAIL_1]!')).toBe(
      'to a@b.io, not [EMAIL_2] nor [DENIED_1]; a@b.io!',
    );
    expect(p.hasValue('a@b.io')).toBe(true);
    expect(p.hasValue('x@y.io')).toBe(false);
  });

  it('redacts a text and restores it to the original', () => {
    const text = 'Mail a@b.io or c@d.io about card 4111 1111 1111 1111, again a@b.io.';
    const p = new Placeholders();
    const redacted = redactText(text, ALL.find(text), p);
    expect(redacted).toBe('Mail [EMAIL_1] or [EMAIL_2] about card [CARD_1], again [EMAIL_1].');
    expect(p.restore(redacted)).toBe(text);
  });

  it('scans into findings and counts per kind', () => {
    const { findings, counts } = scanText('a@b.io, c@d.io, 10.0.0.1', ALL);
    expect(findings).toHaveLength(3);
    expect(counts).toEqual({ email: 2, ip: 1 });
  });
});
