/**
 * A promise bounded in time: what `promise` settles to, or, if it has not
 * settled within `ms`, `fallback()` (by default a rejection "no answer within
 * <ms> ms"). The timer is cleared either way; the promise itself is not
 * cancelled (pass it an AbortSignal for that).
 */
export function within<T, F = never>(ms: number, promise: Promise<T>, fallback?: () => F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<F>((resolve, reject) => {
    timer = setTimeout(() => {
      if (fallback) resolve(fallback());
      else reject(new Error(`no answer within ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}
