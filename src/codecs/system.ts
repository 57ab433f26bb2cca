/** The request's system prompt as one text, for formats that take a single string (pure). */
import type { ChatRequest, Part } from './ir';

/** The system blocks joined by blank lines; null when there are none (or only empty ones). */
export function systemText(request: Pick<ChatRequest, 'system'>): string | null {
  const text = request.system.map((p) => p.text).join('\n\n');
  return text === '' ? null : text;
}

/** The text of a mid-conversation system turn. */
export const turnText = (content: readonly Part[]): string =>
  content.map((p) => (p.type === 'text' ? p.text : '')).join('\n\n');
