import { describe, expect, it } from 'vitest';
import {
  openProviderKey,
  providerKeyHint,
  sealProviderKey,
  secretProblem,
} from '../../../src/util/provider-key-crypto';

const SECRET = 'unit-test-provider-keys-secret-0123456789';
const KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123';

describe('the provider key envelope', () => {
  it('opens what it sealed, and the ciphertext does not contain the key', async () => {
    const sealed = await sealProviderKey(SECRET, 'ten_a', 'openai', KEY);
    expect(await openProviderKey(SECRET, 'ten_a', 'openai', sealed)).toBe(KEY);
    expect(atob(sealed.iv)).toHaveLength(12);
    expect(sealed.ciphertext).not.toContain(KEY);
    expect(atob(sealed.ciphertext)).not.toContain(KEY);
  });

  it('refuses a ciphertext moved to another tenant or another provider (bound as associated data)', async () => {
    const sealed = await sealProviderKey(SECRET, 'ten_a', 'openai', KEY);
    await expect(openProviderKey(SECRET, 'ten_b', 'openai', sealed)).rejects.toThrow();
    await expect(openProviderKey(SECRET, 'ten_a', 'groq', sealed)).rejects.toThrow();
    // The separator keeps "ten_a\nopen" + "ai" apart from "ten_a" + "openai".
    await expect(openProviderKey(SECRET, 'ten_a\nopen', 'ai', sealed)).rejects.toThrow();
  });

  it('refuses to open under another secret', async () => {
    const sealed = await sealProviderKey(SECRET, 'ten_a', 'openai', KEY);
    await expect(openProviderKey(`${SECRET}-rotated`, 'ten_a', 'openai', sealed)).rejects.toThrow();
  });

  it('refuses a tampered ciphertext or IV', async () => {
    const sealed = await sealProviderKey(SECRET, 'ten_a', 'openai', KEY);
    const bytes = Uint8Array.from(atob(sealed.ciphertext), (ch) => ch.charCodeAt(0));
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const flipped = btoa(String.fromCharCode(...bytes));
    await expect(
      openProviderKey(SECRET, 'ten_a', 'openai', { ...sealed, ciphertext: flipped }),
    ).rejects.toThrow();
    const other = await sealProviderKey(SECRET, 'ten_a', 'openai', KEY);
    await expect(openProviderKey(SECRET, 'ten_a', 'openai', { ...sealed, iv: other.iv })).rejects.toThrow();
  });

  it('uses a fresh IV each time, so sealing the same key twice gives different ciphertexts', async () => {
    const seals = await Promise.all(
      Array.from({ length: 50 }, () => sealProviderKey(SECRET, 'ten_a', 'openai', KEY)),
    );
    expect(new Set(seals.map((s) => s.iv)).size).toBe(50);
    expect(new Set(seals.map((s) => s.ciphertext)).size).toBe(50);
  });

  it('hints at a long key with 3 + 4 characters and at a short one with its last 2', () => {
    expect(providerKeyHint('sk-ant-api03-abcdefWXYZ')).toBe('sk-…WXYZ');
    expect(providerKeyHint('short-key-123')).toBe('…23');
  });

  it('calls a missing or short secret unusable', () => {
    expect(secretProblem(undefined)).toMatch(/not set/);
    expect(secretProblem('')).toMatch(/not set/);
    expect(secretProblem('too-short')).toMatch(/shorter than 32/);
    expect(secretProblem(SECRET)).toBeNull();
  });
});
