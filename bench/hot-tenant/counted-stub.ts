/**
 * Counts the Durable Object calls a limiter makes: wraps a Limiter stub so every
 * method called through it (reserve, settle, or whatever else the limits
 * adapter asks the object for) adds one to a per-isolate tally by method name,
 * and every call that rejects adds one to `failed`; `byObject` counts the calls
 * by the name of the object called (the tenant's, or one of its end-user
 * shards). The hot-tenant bench reads the tally to report Durable Object calls
 * per request and per shard.
 */

export interface CallTally {
  readonly calls: Record<string, number>;
  readonly failed: Record<string, number>;
  readonly byObject: Record<string, number>;
}

export function newTally(): CallTally {
  return { calls: {}, failed: {}, byObject: {} };
}

/**
 * The stub, with each method call counted in `tally` (and under `object`, the name the stub was got
 * by); property reads that are not calls pass through.
 */
export function countedStub<T extends object>(stub: T, tally: CallTally, object: string): T {
  const wrapped = new Map<string, (...args: unknown[]) => unknown>();
  return new Proxy(stub, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      // `then` is read by `await`; a stub must never look like a promise.
      if (typeof prop !== 'string' || prop === 'then' || typeof value !== 'function') return value;
      let fn = wrapped.get(prop);
      if (!fn) {
        fn = (...args: unknown[]) => {
          tally.calls[prop] = (tally.calls[prop] ?? 0) + 1;
          tally.byObject[object] = (tally.byObject[object] ?? 0) + 1;
          // Reflect.apply, not value.apply: on an RPC stub `.apply` would be a remote method of that name.
          const result: unknown = Reflect.apply(value, target, args);
          return isThenable(result)
            ? Promise.resolve(result).catch((err: unknown) => failed(tally, prop, err))
            : result;
        };
        wrapped.set(prop, fn);
      }
      return fn;
    },
  });
}

function failed(tally: CallTally, method: string, err: unknown): never {
  tally.failed[method] = (tally.failed[method] ?? 0) + 1;
  throw err;
}

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  (typeof v === 'object' || typeof v === 'function') &&
  v !== null &&
  typeof (v as { then?: unknown }).then === 'function';
