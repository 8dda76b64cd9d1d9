/**
 * `fn` at most once per `ms`; calls in between are counted, and the next call that runs
 * is told how many were held back. For warnings that would otherwise repeat on every
 * request (a shared store that is down).
 */
export function atMostEvery<A>(ms: number, fn: (arg: A, suppressed: number) => void, now: () => number = Date.now): (arg: A) => void {
  let last = -Infinity;
  let suppressed = 0;
  return (arg: A) => {
    const t = now();
    if (t - last < ms) {
      suppressed += 1;
      return;
    }
    last = t;
    const held = suppressed;
    suppressed = 0;
    fn(arg, held);
  };
}
