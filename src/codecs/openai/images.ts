/** Image sources between data URLs (OpenAI's one way to inline an image) and base64 blocks (pure). */
import type { ImageSource } from '../ir';

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+);base64,/;

/** A URL as a source: a `data:…;base64,` URL becomes base64, anything else stays a URL. */
export function imageFromUrl(url: string): ImageSource {
  const m = DATA_URL.exec(url);
  return m
    ? { kind: 'base64', mediaType: m[1] as string, data: url.slice(m[0].length) }
    : { kind: 'url', url };
}

export function imageToUrl(source: ImageSource): string {
  return source.kind === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
}
