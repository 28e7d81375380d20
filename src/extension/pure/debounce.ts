/**
 * A debouncer per key with a maximum wait: `run(key, fn)` calls the last `fn` for a key once `ms`
 * passed without another call, and at the latest `maxWaitMs` after the first call of the burst, so
 * a steady stream of calls (an agent writing ten times a second) still gets through.
 */
export class KeyedDebouncer<K> {
  private readonly timers = new Map<K, { timer: ReturnType<typeof setTimeout>; first: number }>();

  constructor(
    private readonly ms: number,
    private readonly maxWaitMs = Infinity,
  ) {}

  run(key: K, fn: () => void): void {
    const t = this.timers.get(key);
    if (t) clearTimeout(t.timer);
    const now = Date.now();
    const first = t?.first ?? now;
    const wait = Math.max(0, Math.min(this.ms, first + this.maxWaitMs - now));
    this.timers.set(key, {
      first,
      timer: setTimeout(() => {
        this.timers.delete(key);
        fn();
      }, wait),
    });
  }

  cancel(key: K): void {
    const t = this.timers.get(key);
    if (t) clearTimeout(t.timer);
    this.timers.delete(key);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t.timer);
    this.timers.clear();
  }
}
