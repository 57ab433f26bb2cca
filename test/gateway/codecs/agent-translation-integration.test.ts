/**
 * What agents send, through the real gateway to a provider of the other format: Claude Code's
 * own request (thinking, effort, context edits, a system turn, cache breakpoints, beta headers)
 * reaches an OpenAI-format model and is answered, with what was left out named in
 * x-edgeway-dropped; structured output from an OpenAI client reaches an Anthropic-format model.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventData, type Loose } from '../answer-helpers';
import { harness } from '../exchange-harness';
import { readSse, seedKey } from '../helpers';
import claudeCode from './fixtures/claude-code-request.json';

let key: string;
beforeAll(async () => {
  key = (await seedKey({ tenantId: 'ten_agents', limits: { rpm: 1000 } })).secret;
});

const BETA = 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27';

describe("Claude Code's request on an OpenAI-format model", () => {
  it('is answered as a Messages stream, naming what only tuned the provider', async () => {
    const { res, body } = await harness().call(
      { ...claudeCode.body, model: 'gpt-only/echo' },
      key,
      readSse,
      { 'anthropic-version': '2023-06-01', 'anthropic-beta': BETA },
      '/v1/messages?beta=true',
    );
    expect(res.status).toBe(200);
    const dropped = (res.headers.get('x-edgeway-dropped') ?? '').split(', ');
    expect(dropped).toEqual(
      expect.arrayContaining([
        'context_management',
        'tools.defer_loading',
        'cache_control',
        'reasoning',
        'anthropic-beta',
      ]),
    );
    const events = eventData(body);
    expect(events[0]).toMatchObject({ type: 'message_start' });
    expect(events.at(-1)).toMatchObject({ type: 'message_stop' });
    const text = events
      .filter((e) => e.type === 'content_block_delta' && e.delta.type === 'text_delta')
      .map((e) => e.delta.text)
      .join('');
    expect(text.length).toBeGreaterThan(0);
  });

  it('is answered as JSON too', async () => {
    const { res, body } = await harness().call(
      { ...claudeCode.body, model: 'gpt-only/echo', stream: false },
      key,
      (r) => r.json() as Promise<Loose>,
      { 'anthropic-version': '2023-06-01', 'x-api-key': key },
      '/v1/messages',
    );
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'end_turn' });
  });
});

describe('structured output from an OpenAI client on an Anthropic-format model', () => {
  it('json_object comes back as the JSON text of the message (the forced answer tool)', async () => {
    const { res, body } = await harness().call(
      {
        model: 'claude-only/mock-small;tool_call=true',
        messages: [{ role: 'user', content: 'a person as JSON' }],
        response_format: { type: 'json_object' },
      },
      key,
      (r) => r.json() as Promise<Loose>,
    );
    expect(res.status).toBe(200);
    const message = body.choices[0].message;
    expect(message.tool_calls).toBeUndefined();
    expect(typeof JSON.parse(message.content)).toBe('object');
    expect(body.choices[0].finish_reason).toBe('stop');
  });
});
