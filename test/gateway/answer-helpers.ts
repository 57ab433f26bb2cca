/** Reading answers loosely in tests of translated and native providers: JSON bodies, SSE data, a sample tool. */
import type { ParsedEvent } from './helpers';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as loose JSON and checked field by field.
export type Loose = any;

export const asJson = (r: Response) => r.json() as Promise<Loose>;

/** The JSON data of a stream's events, without `[DONE]` and comment-only events. */
export const eventData = (events: ParsedEvent[]): Loose[] =>
  events.filter((e) => e.data !== '[DONE]' && e.data !== '').map((e) => JSON.parse(e.data));

/** An OpenAI function tool with no parameters. */
export const WEATHER_TOOL = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} } },
};
