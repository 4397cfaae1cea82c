import type { EventType } from './catalogue/catalogue.js';
/** 'all': any event changes the value; otherwise only events of these types do. */
export type ChangedBy = 'all' | readonly EventType[];

/**
 * Counts the events folded into the views, overall and by type, so a read every request
 * makes (the space list, the quarantine's depth, a key by its hash, a writer's ban) can
 * be kept until an event that could change its answer is applied, instead of asked of
 * SQLite each time. The journal counts each event before and after its reducers run (a
 * read made by a reducer mid-event is not kept past it) and counts a rollback as a change
 * of everything (a rolled-back write may have been read while it stood). Views are written
 * by reducers only, so these counts change whenever the views could.
 */
export class ViewChanges {
  private all = 0;
  private rollbacks = 0;
  private readonly byType = new Map<string, number>();

  /** Around each event applied, before and after its reducers. */
  applied(type: string): void {
    this.all += 1;
    this.byType.set(type, (this.byType.get(type) ?? 0) + 1);
  }

  /** A write was rolled back: whatever was read while it stood may be gone. */
  rolledBack(): void {
    this.all += 1;
    this.rollbacks += 1;
  }

  /** A number that changes whenever an event of `by` (or a rollback) changes the views. */
  version(by: ChangedBy): number {
    if (by === 'all') return this.all;
    let n = this.rollbacks;
    for (const type of by) n += this.byType.get(type) ?? 0;
    return n;
  }

  /** `compute`'s answer, kept until the views change by `by`. */
  memo<T>(by: ChangedBy, compute: () => T): () => T {
    let kept: { version: number; value: T } | null = null;
    return () => {
      const version = this.version(by);
      if (kept === null || kept.version !== version) kept = { version, value: compute() };
      return kept.value;
    };
  }

  /** `compute`'s answer per key, all kept until the views change by `by`; at most `max` keys kept. */
  memoByKey<K, T>(by: ChangedBy, compute: (key: K) => T, max = 4096): (key: K) => T {
    const kept = new Map<K, T>();
    let keptAt = -1;
    return (key: K) => {
      const version = this.version(by);
      if (version !== keptAt) {
        kept.clear();
        keptAt = version;
      }
      if (kept.has(key)) return kept.get(key)!;
      const value = compute(key);
      if (kept.size >= max) kept.clear();
      kept.set(key, value);
      return value;
    };
  }
}
