import { describe, expect, it } from 'vitest';
import { responsesAssembler } from '../../../../src/codecs/responses/assemble';
import { responsesByteObserver } from '../../../../src/codecs/responses/byte-observer';
import { responsesObserver } from '../../../../src/codecs/responses/observer';
import { replayResponses } from '../../../../src/codecs/responses/replay';
import { both, expectSameEnd } from '../byte-observer-helpers';
import { ARGUMENTS, COMPLETED, frame, parseFrames, recordedEvents, TEXT } from './relay-fixture';

/** The replayed stream through the observer and the assembler: the body they rebuild and the observer. */
function replayedThrough(body: Record<string, unknown>) {
  const assembler = responsesAssembler();
  const observer = responsesObserver({ onChunk: (chunk, event) => assembler.push(chunk, event) });
  const events = parseFrames(replayResponses(body, false));
  const verdicts = events.map((e) => observer.observe({ event: String(e.type), data: JSON.stringify(e) }));
  return { events, verdicts, observer, rebuilt: assembler.result() };
}

/** A response with every kind of part: a refusal, reasoning text, a custom tool call, a hosted tool's item. */
const VARIED = {
  ...COMPLETED,
  id: 'resp_varied',
  status: 'incomplete',
  incomplete_details: { reason: 'max_output_tokens' },
  output: [
    {
      id: 'rs_1',
      type: 'reasoning',
      summary: [],
      content: [{ type: 'reasoning_text', text: 'Thinking it over.' }],
      status: 'completed',
    },
    {
      id: 'msg_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [
        { type: 'refusal', refusal: 'I will not do that.' },
        {
          type: 'output_text',
          text: 'See the docs.',
          annotations: [
            {
              type: 'url_citation',
              url: 'https://example.com',
              title: 'Docs',
              start_index: 4,
              end_index: 12,
            },
          ],
        },
      ],
    },
    {
      id: 'ctc_1',
      type: 'custom_tool_call',
      status: 'completed',
      call_id: 'call_2',
      name: 'shell',
      input: 'ls -la',
    },
    { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'paris' } },
  ],
};

describe('replayResponses', () => {
  it("replays the recorded stream's events in their order, each text in one delta", () => {
    const types = parseFrames(replayResponses(COMPLETED, true)).map((e) => e.type);
    const recorded = recordedEvents()
      .map((e) => e.type)
      .filter((type, i, all) => type !== all[i - 1] || !String(type).endsWith('.delta'));
    expect(types).toEqual(recorded);
  });

  it('numbers every event from 0, each with its event line naming its type', () => {
    const events = parseFrames(replayResponses(COMPLETED, true));
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
  });

  it('is read back by the observer and the assembler as the same response', () => {
    const { verdicts, observer, rebuilt } = replayedThrough(COMPLETED);
    expect(verdicts.every((v) => v === 'forward')).toBe(true);
    expect(rebuilt).toEqual(COMPLETED);
    expect(observer.done).toBe(true);
    expect(observer.usage?.cachedTokens).toBe(128);
    expect(observer.deliveredChars).toBe(TEXT.join('').length + ARGUMENTS.join('').length);
  });

  it('starts with the response in progress, without its output or usage', () => {
    const [created, inProgress] = parseFrames(replayResponses(COMPLETED, true));
    const progress = { ...COMPLETED, status: 'in_progress', output: [], usage: null, completed_at: null };
    expect(created).toEqual({ type: 'response.created', sequence_number: 0, response: progress });
    expect(inProgress).toEqual({ type: 'response.in_progress', sequence_number: 1, response: progress });
  });

  it('streams each text whole between its added and done events, and items added before they are filled', () => {
    const events = parseFrames(replayResponses(COMPLETED, true));
    const added = events.filter((e) => e.type === 'response.output_item.added').map((e) => e.item);
    expect(added).toEqual([
      { id: COMPLETED.output[0]!.id, type: 'reasoning', summary: [] },
      { ...COMPLETED.output[1], status: 'in_progress', content: [] },
      { ...COMPLETED.output[2], status: 'in_progress', arguments: '' },
    ]);
    expect(events.find((e) => e.type === 'response.output_text.delta')).toMatchObject({
      output_index: 1,
      content_index: 0,
      delta: TEXT.join(''),
    });
    expect(events.find((e) => e.type === 'response.function_call_arguments.done')).toMatchObject({
      name: 'get_weather',
      arguments: ARGUMENTS.join(''),
    });
  });

  it('ends an incomplete response with response.incomplete and replays refusals, reasoning text, custom tool input and hosted items', () => {
    const { events, rebuilt, observer } = replayedThrough(VARIED);
    expect(rebuilt).toEqual(VARIED);
    expect(events.at(-1)?.type).toBe('response.incomplete');
    expect(observer.done).toBe(true);
    expect(observer.deliveredChars).toBe(
      'I will not do that.'.length + 'See the docs.'.length + 'ls -la'.length,
    );
    const types = events.map((e) => e.type);
    for (const type of [
      'response.reasoning_text.delta',
      'response.refusal.done',
      'response.output_text.annotation.added',
      'response.custom_tool_call_input.done',
    ])
      expect(types).toContain(type);
  });

  it('ends a failed response with response.failed, which the observer reads as an upstream error', () => {
    const failed = {
      ...COMPLETED,
      status: 'failed',
      output: [],
      error: { code: 'server_error', message: 'boom' },
    };
    const { events, observer, rebuilt } = replayedThrough(failed);
    expect(events.at(-1)?.type).toBe('response.failed');
    expect(observer.upstreamError).toBe('boom');
    expect(rebuilt).toEqual(failed);
  });

  it('gives the byte observer the verdicts the parsing observer gives', () => {
    const frames = parseFrames(replayResponses(COMPLETED, true)).map(frame);
    const full = responsesObserver();
    const fast = responsesByteObserver();
    const v = both(frames, full, fast);
    expect(v.fast).toEqual(v.full);
    expectSameEnd(full, fast);
  });
});
