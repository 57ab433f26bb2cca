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

/** An OpenAI conversation that called get_weather(Oslo) as `callId`, got "sunny" back, then said "thanks". */
export function toolRoundTrip(callId: string): Loose[] {
  return [
    { role: 'user', content: 'weather?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: callId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      ],
    },
    { role: 'tool', tool_call_id: callId, content: 'sunny' },
    { role: 'user', content: 'thanks' },
  ];
}
