/**
 * A faithful fake of the Workers AI binding. Text-generation models are
 * faked in ./workers-ai-chat.ts; this file fakes the text-embedding models, built
 * from the models' published input/output schemas
 * (developers.cloudflare.com/workers-ai/models/bge-base-en-v1.5): it knows
 * the model ids and their output dimensions, takes `text` as a non-empty
 * string or an array of at most 100 non-empty strings, `pooling` as
 * "mean" | "cls", and answers `{ shape: [n, d], data, pooling }`. Anything
 * else is refused the way the service refuses it: by throwing.
 *
 * Vectors come from the local hashing embedder at the model's size, so
 * similar texts score high, as with the real model. Mean- and cls-pooled
 * vectors of one text differ (the real service warns they are incompatible).
 * Not modelled: the 512-token input window, the async `requests` queue.
 * Llama Guard (the second-opinion guardrail) is faked in ./workers-ai-guard.ts.
 */
import { embedLocally } from '../../../src/storage/local-embedder';
import { type ChatFaults, FAKE_CHAT_MODELS, runChat } from './workers-ai-chat';
import { LLAMA_GUARD, runGuard } from './workers-ai-guard';

const MODELS: Readonly<Record<string, number>> = {
  '@cf/baai/bge-small-en-v1.5': 384,
  '@cf/baai/bge-base-en-v1.5': 768,
  '@cf/baai/bge-large-en-v1.5': 1024,
};
const MAX_ITEMS = 100;

export class FakeWorkersAi {
  /** Embedding calls. */
  readonly calls: { model: string; count: number }[] = [];
  /** Chat calls, with the inputs as the binding received them. */
  readonly chatCalls: { model: string; inputs: unknown; signal: AbortSignal | undefined }[] = [];
  /** Llama Guard calls, with the inputs as the binding received them. */
  readonly guardCalls: { inputs: unknown }[] = [];

  constructor(private readonly faults: ChatFaults = {}) {}

  async run(model: string, inputs: unknown, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    if (model === LLAMA_GUARD) {
      this.guardCalls.push({ inputs: structuredClone(inputs) });
      return runGuard(inputs, this.faults.fail, options.signal);
    }
    if (Object.hasOwn(FAKE_CHAT_MODELS, model)) {
      this.chatCalls.push({ model, inputs: structuredClone(inputs), signal: options.signal });
      return runChat(model, inputs, this.faults, options.signal);
    }
    return this.embed(model, inputs);
  }

  private embed(
    model: string,
    inputs: unknown,
  ): { shape: number[]; data: number[][]; pooling: 'mean' | 'cls' } {
    const dimensions = MODELS[model];
    if (dimensions === undefined) throw new Error(`5007: No such model ${model} or task`);
    if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs))
      throw schemaError("type at '/' not met: expected object");
    const { text, pooling = 'mean' } = inputs as { text?: unknown; pooling?: unknown };
    if (pooling !== 'mean' && pooling !== 'cls') throw schemaError("enum at '/pooling' not met");
    let texts: string[];
    if (typeof text === 'string') {
      if (text.length < 1) throw schemaError("minLength at '/text' not met");
      texts = [text];
    } else if (Array.isArray(text)) {
      if (text.length > MAX_ITEMS)
        throw schemaError(`maxItems at '/text' not met: ${text.length} > ${MAX_ITEMS}`);
      if (!text.every((t): t is string => typeof t === 'string' && t.length >= 1))
        throw schemaError("items at '/text' not met: non-empty strings expected");
      texts = text;
    } else {
      throw schemaError("required properties at '/' not met: text");
    }
    this.calls.push({ model, count: texts.length });
    const data = texts.map((t) => {
      const v = Array.from(embedLocally(t, dimensions));
      return pooling === 'cls' ? v : [...v.slice(1), v[0] as number];
    });
    return { shape: [data.length, dimensions], data, pooling };
  }
}

function schemaError(detail: string): Error {
  return new Error(`5006: Error: oneOf at '/' not met, 0 matches: ${detail}`);
}
