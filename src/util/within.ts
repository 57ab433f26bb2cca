/**
 * A promise bounded in time: what `promise` settles to, or, if it has not
 * settled within `ms`, `fallback()` (by default a rejection "no answer within
 * <ms> ms"). The timer is cleared either way; the promise itself is not
 * cancelled (pass it an AbortSignal for that). One promise and one timer, no
 * race: it runs on the hot path (an upstream body, a limiter call).
 */
export function within<T, F = never>(ms: number, promise: Promise<T>, fallback?: () => F): Promise<T | F> {
  return new Promise<T | F>((resolve, reject) => {
    const timer = setTimeout(() => {
      if (!fallback) reject(new Error(`no answer within ${ms} ms`));
      else {
        try {
          resolve(fallback());
        } catch (err) {
          reject(err);
        }
      }
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
