/**
 * What a Responses API stream must look like beyond each event's own schema: every event named
 * twice, as its SSE `event:` and as the data's `type` (OpenAI's streams and SDKs do both); sequence
 * numbers from 0 rising by one across the whole stream (the description's `sequence_number`, as
 * OpenAI numbers it); `response.created` first; exactly one terminal event, last (`response.completed`,
 * `response.incomplete`, `response.failed`, or an `error` event); no `[DONE]` (that is Chat
 * Completions'). `framingFaults` lists the departures, one line each; [] when there is none.
 */

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);

/** Departures of `events` (./exchange.mjs's { event, data }) from a Responses stream's framing. */
export function framingFaults(events) {
  if (events.length === 0) return ['no events'];
  const faults = [];
  events.forEach(({ event, data }, index) => {
    if (data === '[DONE]') {
      faults.push(`event ${index}: a [DONE] sentinel`);
      return;
    }
    if (event !== data?.type) faults.push(`event ${index}: \`event: ${event}\` but type ${data?.type}`);
    if (data?.sequence_number !== index)
      faults.push(`event ${index} (${data?.type}): sequence_number ${data?.sequence_number}`);
    const last = index === events.length - 1;
    if (TERMINAL.has(data?.type) !== last)
      faults.push(
        `event ${index} (${data?.type}): ${last ? 'the stream ends without a terminal event' : 'a terminal event before the end'}`,
      );
  });
  const first = events[0].data?.type;
  if (first !== 'response.created' && first !== 'error')
    faults.push(`the stream opens with ${first}, not response.created`);
  return faults;
}
