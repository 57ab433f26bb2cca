/**
 * Inline files across formats (pure): the data URLs OpenAI's formats carry them in ⇄ the canonical
 * file part, the media types every encoder takes (PDF and plain text), default names, and plain
 * text between base64 and UTF-8 (Anthropic's text documents).
 */
import { badRequest } from '../core/errors';
import type { FilePart } from './ir';
import { unsupported } from './json';

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)(?:;[\w.+-]+=[\w.+-]+)*;base64,/;

/** The media types a file part may have upstream, by the short kind the encoders switch on. */
const KINDS: Readonly<Record<string, 'pdf' | 'text'>> = {
  'application/pdf': 'pdf',
  'text/plain': 'text',
};

/**
 * A `data:<mime>;base64,<data>` URL (OpenAI's `file_data`) as a file part; a 400 naming `param` when
 * the file is not inline (`file_id`, `file_url`, a bare string).
 */
export function fileFromDataUrl(
  fileData: unknown,
  filename: unknown,
  param: string,
  stored: boolean,
): Omit<FilePart, 'cache'> {
  // A file_id names a file stored at OpenAI and a file_url one the provider would fetch: no other provider can read them.
  if (typeof fileData !== 'string')
    throw unsupported(param, null, stored ? 'with a file_id or file_url' : 'without file_data');
  const m = DATA_URL.exec(fileData);
  if (!m) throw unsupported(param, null, "with file_data that is not a 'data:<type>;base64,' URL");
  return {
    type: 'file',
    mediaType: (m[1] as string).toLowerCase(),
    data: fileData.slice(m[0].length),
    filename: typeof filename === 'string' && filename !== '' ? filename : null,
  };
}

export const fileToDataUrl = (p: FilePart): string => `data:${p.mediaType};base64,${p.data}`;

/** The file's kind, or a 400 naming `param` when the target takes no file of its media type. */
export function fileKind(p: FilePart, param: string, target: string): 'pdf' | 'text' {
  const kind = KINDS[p.mediaType.toLowerCase()];
  if (!kind)
    throw unsupported(
      param,
      target,
      `as a file of type '${p.mediaType}' (PDF and plain text files are translated)`,
    );
  return kind;
}

/** The client's file name, or one that says the kind. */
export const fileName = (p: FilePart, kind: 'pdf' | 'text'): string =>
  p.filename ?? (kind === 'pdf' ? 'file.pdf' : 'file.txt');

/** Base64 of UTF-8 bytes as text (a plain-text document's content); a 400 naming `param` when it is not base64. */
export function base64ToText(data: string, param: string): string {
  let binary: string;
  try {
    binary = atob(data);
  } catch {
    throw badRequest(`'${param}' holds file data that is not base64.`, param, 'invalid_value');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** Text as base64 of its UTF-8 bytes. */
export function textToBase64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
