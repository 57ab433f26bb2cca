/**
 * Text slots: the texts of a body that guardrails read and may rewrite, found in
 * the body as the client sent it, without re-encoding it. Each slot names its
 * role and writes a new value back in place, so redaction changes exactly the
 * strings it found and the body the provider gets is the client's own with
 * those strings replaced. Each client codec finds its format's slots
 * (src/codecs/<format>/slots.ts); this module is what they share.
 */
import type { Json } from './json';

/** Who wrote a text: injection scans what users and tools wrote; PII and secrets scan everything. */
export type SlotRole = 'system' | 'user' | 'assistant' | 'tool';

export interface TextSlot {
  readonly role: SlotRole;
  /** The current value (after any `set`). */
  readonly text: string;
  set(text: string): void;
}

export function slot(holder: Json | unknown[], key: string | number, role: SlotRole): TextSlot | null {
  const fields = holder as Record<string | number, unknown>;
  if (typeof fields[key] !== 'string' || fields[key] === '') return null;
  return {
    role,
    get text() {
      return fields[key] as string;
    },
    set(text) {
      fields[key] = text;
    },
  };
}

export function pushSlot(out: TextSlot[], s: TextSlot | null): void {
  if (s) out.push(s);
}
