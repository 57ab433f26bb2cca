/**
 * Text slots: the texts of a body that guardrails read and may rewrite, found in
 * the body as the client sent it, without re-encoding it. Each slot names its
 * role and writes a new value back in place, so redaction changes exactly the
 * strings it found and the body the provider gets is the client's own with
 * those strings replaced. Each client codec finds its format's slots
 * (src/codecs/<format>/slots.ts); this module is what they share.
 *
 * A tool result's slots also carry the result they belong to (`result`, one
 * object shared by every slot of that result), so the guardrails can judge a
 * result as one text and withhold it whole: `quarantine` replaces the result's
 * entire content (every text part, and any image or file in it) with a notice.
 */
import type { Json } from './json';

/** Who wrote a text: injection scans what users and tools wrote; PII and secrets scan everything. */
export type SlotRole = 'system' | 'user' | 'assistant' | 'tool';

/** One tool result of a request: where it is, the call it answers, and how to withhold it. */
export interface ToolResultRef {
  /** Its position among the request's tool results, 0-based, in document order (text-less ones count too). */
  readonly index: number;
  /** The tool call's id as the client sent it (chat `tool_call_id`, Anthropic `tool_use_id`, Responses `call_id`). */
  readonly id: string | null;
  /** Replaces the result's whole content with `notice`, as a plain string. */
  quarantine(notice: string): void;
}

export interface TextSlot {
  readonly role: SlotRole;
  /** The current value (after any `set`). */
  readonly text: string;
  set(text: string): void;
  /** The tool result this text is part of (tool slots only). */
  readonly result?: ToolResultRef;
}

export function slot(
  holder: Json | unknown[],
  key: string | number,
  role: SlotRole,
  result?: ToolResultRef,
): TextSlot | null {
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
    ...(result ? { result } : {}),
  };
}

/** Makes a body's tool results, numbered in the order they are made: the result at `holder[key]`, answering `id`. */
export type ToolResults = (holder: Json, key: string, id: unknown) => ToolResultRef;

/** A new numbering of tool results, one per body read. */
export function toolResults(): ToolResults {
  let next = 0;
  return (holder, key, id) => ({
    index: next++,
    id: typeof id === 'string' && id !== '' ? id : null,
    quarantine(notice) {
      holder[key] = notice;
    },
  });
}

export function pushSlot(out: TextSlot[], s: TextSlot | null): void {
  if (s) out.push(s);
}
