import { describe, expect, it } from 'vitest';
import { relay } from '../../../src/pipeline/stream';
import { openAiObserver } from '../../../src/sse/observer';

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

describe('relay', () => {
  it('forwards whole-event chunks byte for byte and reports completion with usage', async () => {
    const usage = `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 2 } })}\n\n`;
    const parts = [chunk('a'), chunk('b') + usage, 'data: [DONE]\n\n'];
    const up = upstream([...parts.slice(1)]);
    let aborted = false;
    const { body, outcome } = relay({
      reader: up.reader,
      first: enc(parts[0]!),
      observer: openAiObserver({ stripUsage: false }),
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
      observer: openAiObserver({ stripUsage: false }),
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
      observer: openAiObserver({ stripUsage: false }),
      idleTimeoutMs: 60_000,
      abortUpstream: () => (aborted = true),
    });
    const reader = body.getReader();
    await reader.read();
    await reader.cancel();
    expect(aborted).toBe(true);
    expect(await outcome).toMatchObject({ completed: false, cancelledByClient: true, deliveredChars: 1 });
  });

  it('ends with an idle-timeout error frame when the upstream goes quiet', async () => {
    const up = upstream([], { hang: true });
    let aborted = false;
    const { body, outcome } = relay({
      reader: up.reader,
      first: enc(chunk('a')),
      observer: openAiObserver({ stripUsage: false }),
      idleTimeoutMs: 20,
      abortUpstream: () => (aborted = true),
    });
    const text = await new Response(body).text();
    expect(text).toContain('"code":"stream_idle_timeout"');
    expect(aborted).toBe(true);
    expect((await outcome).error?.code).toBe('stream_idle_timeout');
  });
});
