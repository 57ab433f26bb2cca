/**
 * Reasoning items of OpenAI's Responses API ⇄ the canonical reasoning parts (pure). A reasoning
 * item's `encrypted_content` is OpenAI's own proof of the reasoning, carried unchanged; a signature
 * another format issued travels as `edgeway:<issuer>:<signature>`, and redacted reasoning as
 * `edgeway:<issuer>:redacted:<data>` with an empty summary, so that either comes back to the gateway
 * naming who can verify it and is unwrapped there, byte for byte (../reasoning.ts).
 */
import type { ReasoningIssuer, ReasoningPart, RedactedReasoningPart } from '../ir';
import { arr, type Json, obj, str } from '../json';
import { unwrapForeign, wrapForeign } from '../reasoning';

const REDACTED = /^edgeway:(anthropic|gemini|bedrock|openai):redacted:/;

/** The `encrypted_content` a part travels as to a Responses client; null when it has none to carry. */
export function encryptedContentOf(p: ReasoningPart | RedactedReasoningPart): string | null {
  if (p.type === 'redacted_reasoning')
    return p.issuer === null ? null : `edgeway:${p.issuer}:redacted:${p.data}`;
  return p.signature === null ? null : wrapForeign(p.signature, p.issuer, 'openai');
}

/** A reasoning item's `encrypted_content` read back: redacted reasoning, or a signature and its issuer. */
export function decodeEncryptedContent(
  value: string,
):
  | { redacted: true; data: string; issuer: ReasoningIssuer }
  | { redacted: false; signature: string; issuer: ReasoningIssuer } {
  const redacted = REDACTED.exec(value);
  if (redacted)
    return { redacted: true, data: value.slice(redacted[0].length), issuer: redacted[1] as ReasoningIssuer };
  const { value: signature, issuer } = unwrapForeign(value, 'openai');
  return { redacted: false, signature, issuer };
}

/** The text of a reasoning item: its summaries joined by blank lines, else its raw reasoning text. */
function reasoningText(item: Json): string {
  const summaries = arr(item.summary).flatMap((s) => {
    const text = str(obj(s)?.text);
    return text === null ? [] : [text];
  });
  if (summaries.length > 0) return summaries.join('\n\n');
  return arr(item.content)
    .flatMap((c) => {
      const text = str(obj(c)?.text);
      return text === null ? [] : [text];
    })
    .join('\n\n');
}

/** A `reasoning` item (a client's input, or a provider's output) as its canonical part. */
export function decodeReasoningItem(item: Json): ReasoningPart | RedactedReasoningPart {
  const text = reasoningText(item);
  const encrypted = str(item.encrypted_content);
  if (encrypted === null || encrypted === '')
    return { type: 'reasoning', text, signature: null, issuer: null };
  const decoded = decodeEncryptedContent(encrypted);
  if (decoded.redacted) return { type: 'redacted_reasoning', data: decoded.data, issuer: decoded.issuer };
  return { type: 'reasoning', text, signature: decoded.signature, issuer: decoded.issuer };
}

/** A `reasoning` output item for a Responses client (null when a redacted part names no issuer: nobody could verify it). */
export function reasoningItem(p: ReasoningPart | RedactedReasoningPart, id: string): Json | null {
  const encrypted = encryptedContentOf(p);
  if (p.type === 'redacted_reasoning' && encrypted === null) return null;
  const text = p.type === 'reasoning' ? p.text : '';
  return {
    id,
    type: 'reasoning',
    summary: text === '' ? [] : [{ type: 'summary_text', text }],
    ...(encrypted === null ? {} : { encrypted_content: encrypted }),
  };
}

/**
 * A reasoning item to send to an OpenAI Responses provider: only what OpenAI issued (it decrypts
 * and verifies it); an id is not sent, since the provider is called statelessly (`store: false`).
 */
export function reasoningItemUpstream(p: ReasoningPart | RedactedReasoningPart): Json[] {
  if (p.issuer !== 'openai') return [];
  if (p.type === 'redacted_reasoning') return [{ type: 'reasoning', summary: [], encrypted_content: p.data }];
  if (p.signature === null) return [];
  const summary = p.text === '' ? [] : [{ type: 'summary_text', text: p.text }];
  return [{ type: 'reasoning', summary, encrypted_content: p.signature }];
}
