/** A debouncer per key: `run(key, fn)` calls the last `fn` for a key once `ms` passed without another call. */
export class KeyedDebouncer<K> {
  private readonly timers = new Map<K, ReturnType<typeof setTimeout>>();

  constructor(private readonly ms: number) {}

  run(key: K, fn: () => void): void {
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        fn();
      }, this.ms),
    );
  }

  cancel(key: K): void {
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.delete(key);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
