import type { RunnerHello } from '../domain/runner-hello.js';

/** `gv.runner_token` (docs/protocol.md#gvrunner_keys-and-gvrunner_token): the one instance heard on a key within this window may take its token (and keys). */
export const INSTANCE_WINDOW_MS = 120_000;

export interface KeptHello {
  at: number;
  report: RunnerHello;
}

/**
 * The newest hello per runner key, and the instances heard on each key: kept in memory
 * only (docs/architecture.md#rules-of-the-house, rule 6, names the newest hello as one of the few facts outside the journal). A
 * restart forgets them; a runner is heard again at its next hello.
 */
export class HelloBoard {
  private readonly newest = new Map<string, KeptHello>();
  private readonly heard = new Map<string, Map<string, number>>();

  /** Records that `instance` spoke on `runner` at `now`, whether or not its hello is then accepted. */
  hear(runner: string, instance: string, now: number): void {
    const instances = this.heard.get(runner) ?? new Map<string, number>();
    instances.set(instance, now);
    for (const [other, at] of instances) if (now - at > INSTANCE_WINDOW_MS) instances.delete(other);
    this.heard.set(runner, instances);
  }

  /** The instances heard on `runner` within the window before `now`. */
  instancesHeard(runner: string, now: number): string[] {
    return [...(this.heard.get(runner) ?? new Map<string, number>())].filter(([, at]) => now - at <= INSTANCE_WINDOW_MS).map(([i]) => i);
  }

  /** Milliseconds until `runner` may send its next hello, or 0 when it may now. */
  waitBeforeNext(runner: string, now: number, intervalMs: number): number {
    const last = this.newest.get(runner);
    return last === undefined ? 0 : Math.max(0, last.at + intervalMs - now);
  }

  keep(runner: string, report: RunnerHello, now: number): void {
    this.newest.set(runner, { at: now, report });
  }

  newestOf(runner: string): KeptHello | undefined {
    return this.newest.get(runner);
  }

  /** Whether `runner` was heard within `withinMs` of `now` (a crew whose runner is silent longer is gone). */
  heardWithin(runner: string, now: number, withinMs: number): boolean {
    const last = this.newest.get(runner);
    return last !== undefined && now - last.at <= withinMs;
  }
}
