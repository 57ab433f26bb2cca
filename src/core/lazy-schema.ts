/**
 * A module-level schema built on its first use instead of at module load. Building a zod schema is
 * start-up CPU every new isolate pays (DESIGN.md §5, cold start); a schema that only a later step
 * parses with (the log consumer, not the request that emits the event) need not be built before the
 * first request. The value stands for the schema in every way code uses one (its methods, its
 * prototype, as a part of another schema), and builds it on first touch.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => {
    built ??= build();
    return built;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may not report a property its target lacks as non-configurable.
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    defineProperty: (_, key, d) => Reflect.defineProperty(schema(), key, d),
  });
}
