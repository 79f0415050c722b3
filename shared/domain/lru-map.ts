/**
 * A map that keeps at most `maxEntries` entries, forgetting the least recently used first. Caches
 * of things compiled from operator input (schemas, patterns) use it so that no stream of distinct
 * inputs can grow the process without bound.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, not ${maxEntries}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value of `key`, now the most recently used, or undefined. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Sets `key` as the most recently used, evicting the least recently used beyond the bound. */
  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    return this;
  }

  /** The value of `key`, made by `make` when absent (a `make` that throws stores nothing). */
  getOrSet(key: K, make: () => V): V {
    const cached = this.get(key);
    if (cached !== undefined || this.entries.has(key)) return cached as V;
    const value = make();
    this.set(key, value);
    return value;
  }
}
