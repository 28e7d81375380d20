/**
 * A debouncer per key with a maximum wait: `run(key, fn)` calls the last `fn` for a key once `ms`
 * passed without another call, and at the latest `maxWaitMs` after the first call of the burst, so
 * a steady stream of calls (an agent writing ten times a second) still gets through. With
 * `minIntervalMs`, a key's `fn` runs at most once in that long: calls whose gaps each exceed the quiet
 * time (a rebase's commits, a tenth of a second apart) are run together, not once per call.
 */
export class KeyedDebouncer<K> {
  private readonly timers = new Map<K, { timer: ReturnType<typeof setTimeout>; first: number }>();
  /** When each key's `fn` last ran (for `minIntervalMs`). */
  private readonly ran = new Map<K, number>();

  constructor(
    private readonly ms: number,
    private readonly maxWaitMs = Infinity,
    private readonly minIntervalMs = 0,
  ) {}

  run(key: K, fn: () => void): void {
    const t = this.timers.get(key);
    if (t) clearTimeout(t.timer);
    const now = Date.now();
    const first = t?.first ?? now;
    const last = this.ran.get(key);
    const spaced = last === undefined ? 0 : last + this.minIntervalMs - now;
    const wait = Math.max(0, Math.min(this.ms, first + this.maxWaitMs - now), spaced);
    this.timers.set(key, {
      first,
      timer: setTimeout(() => {
        this.timers.delete(key);
        if (this.minIntervalMs > 0) this.ran.set(key, Date.now());
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
    this.ran.clear();
  }
}
