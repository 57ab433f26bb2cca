import { describe, expect, it } from 'vitest';
import { relay } from '../../../src/pipeline/stream';
import { scrubSecrets } from '../../../src/providers/scrub';
import { openAiByteObserver } from '../../../src/codecs/openai/byte-observer';
import { openAiObserver } from '../../../src/codecs/openai/observer';

const enc = (s: string) => new TextEncoder().encode(s);

function upstream(chunks: string[], { hang = false } = {}) {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = chunks.shift();
      if (next !== undefined) controller.enqueue(enc(next));
      else if (hang) await new Promise(() => {});
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { reader: stream.getReader(), wasCancelled: () => cancelled };
}

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;

// Every guarantee holds alike with the parsing observer and the byte-level one of the fast path.
describe.each([
  ['parsing', openAiObserver],
  ['byte-level', openAiByteObserver],
])('relay (%s observer)', (_name, observer) => {
  it('forwards whole-event chunks byte for byte and reports completion with usage', async () => {
    const usage = `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 2 } })}\n\n`;
    const parts = [chunk('a'), chunk('b') + usage, 'data: [DONE]\n\n'];
    const up = upstream([...parts.slice(1)]);
    let aborted = false;
    const { body, outcome } = relay({
      reader: up.reader,
      first: enc(parts[0]!),
      observer: observer({ stripUsage: false }),
      idleTimeoutMs: 1000,
      abortUpstream: () => (aborted = true),
    });
    const text = await new Response(body).text();
    expect(text).toBe(parts.join(''));
    const o = await outcome;
    expect(o).toMatchObject({
      completed: true,
      usage: { inputTokens: 5, outputTokens: 2 },
      deliveredChars: 2,
      error: null,
    });
    expect(aborted).toBe(false);
  });

  it('re-joins an event split across chunks without emitting half of it', async () => {
    const whole = chunk('hello');
    const up = upstream([whole.slice(10), 'data: [DONE]\n\n']);
    const { body } = relay({
      reader: up.reader,
      first: enc(whole.slice(0, 10)),
      observer: observer({ stripUsage: false }),
      idleTimeoutMs: 1000,
      abortUpstream: () => {},
    });
    const reader = body.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(whole);
  });

  it('aborts the upstream and settles as cancelled when the client goes away', async () => {
    const up = upstream([chunk('b')], { hang: true });
    let aborted = false;
    const { body, outcome } = relay({
      reader: up.reader,
      first: enc(chunk('a')),
      observer: observer({ stripUsage: false }),
      idleTimeoutMs: 60_000,
      abortUpstream: () => (aborted = true),
    });
    const reader = body.getReader();
    await reader.read();
    await reader.cancel();
    // The upstream is still silent (it hangs): only the client's going away can end this.
    expect(await outcome).toMatchObject({ completed: false, cancelledByClient: true, deliveredChars: 1 });
    expect(aborted).toBe(true);
  });

  it('ends with an idle-timeout error frame when the upstream goes quiet', async () => {
    const up = upstream([], { hang: true });
    let aborted = false;
    const { body, outcome } = relay({
      reader: up.reader,
      first: enc(chunk('a')),
      observer: observer({ stripUsage: false }),
      idleTimeoutMs: 20,
      abortUpstream: () => (aborted = true),
    });
    const text = await new Response(body).text();
    expect(text).toContain('"code":"stream_idle_timeout"');
    expect(aborted).toBe(true);
    expect((await outcome).error?.code).toBe('stream_idle_timeout');
  });

  it('does not blame the upstream for a client that stops reading longer than the idle timeout', async () => {
    const up = upstream([chunk('b'), chunk('c'), 'data: [DONE]\n\n']);
    const { body, outcome } = relay({
      reader: up.reader,
      first: enc(chunk('a')),
      observer: observer({ stripUsage: false }),
      idleTimeoutMs: 30,
      abortUpstream: () => {},
    });
    const reader = body.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 150));
    let text = '';
    for (let r = await reader.read(); !r.done; r = await reader.read())
      text += new TextDecoder().decode(r.value);
    expect(text).not.toContain('stream_idle_timeout');
    expect(text).toContain('[DONE]');
    expect(await outcome).toMatchObject({ completed: true, error: null, deliveredChars: 3 });
  });

  it('still times out an upstream that goes quiet after a client pause', async () => {
    const up = upstream([chunk('b')], { hang: true });
    const { body, outcome } = relay({
      reader: up.reader,
      first: enc(chunk('a')),
      observer: observer({ stripUsage: false }),
      idleTimeoutMs: 30,
      abortUpstream: () => {},
    });
    const reader = body.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const text = await new Response(
      new ReadableStream({
        pull: async (c) => {
          const r = await reader.read();
          if (r.done) c.close();
          else c.enqueue(r.value);
        },
      }),
    ).text();
    expect(text).toContain('"code":"stream_idle_timeout"');
    expect((await outcome).error?.code).toBe('stream_idle_timeout');
  });

  it('ends with event_too_large and cancels the upstream when one event outgrows the cap', async () => {
    const piece = 'x'.repeat(64 * 1024);
    const parts = [`${chunk('a')}data: {"choices":[{"delta":{"content":"`];
    for (let i = 0; i < 40; i++) parts.push(piece);
    const up = upstream(parts, { hang: true });
    let aborted = false;
    const { body, outcome } = relay({
      reader: up.reader,
      first: null,
      observer: observer({ stripUsage: false }),
      idleTimeoutMs: 1000,
      abortUpstream: () => (aborted = true),
    });
    const text = await new Response(body).text();
    expect(text.startsWith(chunk('a'))).toBe(true);
    expect(text).toContain('"code":"event_too_large"');
    expect(text.length).toBeLessThan(4096);
    expect(aborted).toBe(true);
    expect(up.wasCancelled()).toBe(true);
    expect(await outcome).toMatchObject({
      completed: false,
      deliveredChars: 1,
      error: { code: 'event_too_large' },
    });
  });

  it('relays an error event the upstream sends mid-stream scrubbed of credentials', async () => {
    const error = `data: ${JSON.stringify({ error: { message: 'bad key sk-live-abcdefghijklmnopqrstu', code: 'x' } })}\n\n`;
    const up = upstream([error]);
    const { body, outcome } = relay({
      reader: up.reader,
      first: enc(chunk('a')),
      observer: observer({ stripUsage: false }),
      idleTimeoutMs: 1000,
      abortUpstream: () => {},
      scrub: scrubSecrets,
    });
    const text = await new Response(body).text();
    expect(text).not.toContain('sk-live');
    expect(text).toContain('"message":"bad key [redacted]"');
    expect(text.startsWith(chunk('a'))).toBe(true);
    await outcome;
  });

  it('hands on a chunk of whole forwarded events in one piece, unchanged', async () => {
    const first = enc(chunk('a') + chunk('b'));
    const up = upstream(['data: [DONE]\n\n']);
    const { body } = relay({
      reader: up.reader,
      first,
      observer: observer({ stripUsage: false }),
      idleTimeoutMs: 1000,
      abortUpstream: () => {},
    });
    expect((await body.getReader().read()).value).toEqual(first);
  });

  it('strips the usage chunk the client did not ask for and still settles with its usage', async () => {
    const usage = `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 2 } })}\n\n`;
    const up = upstream([chunk('b') + usage, 'data: [DONE]\n\n']);
    const { body, outcome } = relay({
      reader: up.reader,
      first: enc(chunk('a')),
      observer: observer({ stripUsage: true }),
      idleTimeoutMs: 1000,
      abortUpstream: () => {},
    });
    expect(await new Response(body).text()).toBe(`${chunk('a')}${chunk('b')}data: [DONE]\n\n`);
    expect(await outcome).toMatchObject({ completed: true, usage: { inputTokens: 5, outputTokens: 2 } });
  });

  it('ends a cut stream with stream_incomplete, counting what was delivered', async () => {
    const up = upstream([chunk('bcd')]);
    const { body, outcome } = relay({
      reader: up.reader,
      first: enc(chunk('a')),
      observer: observer({ stripUsage: false }),
      idleTimeoutMs: 1000,
      abortUpstream: () => {},
    });
    expect(await new Response(body).text()).toContain('"code":"stream_incomplete"');
    expect(await outcome).toMatchObject({ completed: false, deliveredChars: 4 });
  });

  it('stops at an event that is not a JSON object, relaying nothing of it', async () => {
    const up = upstream([`${chunk('b')}data: {"id":"x",\n\n${chunk('c')}`]);
    const { body, outcome } = relay({
      reader: up.reader,
      first: enc(chunk('a')),
      observer: observer({ stripUsage: false }),
      idleTimeoutMs: 1000,
      abortUpstream: () => {},
    });
    const text = await new Response(body).text();
    expect(text.startsWith(chunk('a'))).toBe(true);
    expect(text).not.toContain('"id":"x"');
    expect(text).toContain('"code":"malformed_chunk"');
    expect((await outcome).error?.code).toBe('malformed_chunk');
  });
});
