import { describe, expect, it } from 'vitest';
import { setImmediate as nextPass } from 'node:timers/promises';
import { FairQueue } from '../../src/long-reads/fair-queue.js';
import { ReadBudget } from '../../src/long-reads/read-budget.js';
import { Turns } from '../../src/long-reads/turns.js';

/** A clock the test moves by hand. */
const clockAt = (start: number) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe('the order of long reads', () => {
  it('serves identities in turn however many waiters each has', () => {
    const q = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3']) q.push('a', item);
    q.push('b', 'b1');
    q.push('c', 'c1');
    q.push('a', 'a4');
    const order: string[] = [];
    for (let item = q.shift(); item !== undefined; item = q.shift()) order.push(item);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'a3', 'a4']);
    expect(q.size).toBe(0);
  });

  it('gives one turn a pass of the event loop, so what else waits runs between two chunks', async () => {
    const turns = new Turns();
    const happened: string[] = [];
    const read = async (who: string, chunks: number) => {
      for (let i = 1; i <= chunks; i++) {
        await turns.take(who);
        happened.push(`${who}${i}`);
      }
    };
    // Another caller's work: a callback of the loop's next passes, as a request's I/O is.
    const other = (async () => {
      for (let i = 1; i <= 3; i++) {
        await nextPass();
        happened.push(`other${i}`);
      }
    })();
    await Promise.all([read('a', 3), read('a', 3), read('b', 2), other]);
    // Identity a has two reads waiting and b one: the turns still go a, b, a, b, ...
    const turnsTaken = happened.filter((h) => !h.startsWith('other'));
    expect(turnsTaken).toEqual(['a1', 'b1', 'a1', 'b2', 'a2', 'a2', 'a3', 'a3']);
    // The other caller ran between chunks, not after them all.
    expect(happened.indexOf('other1')).toBeLessThan(happened.indexOf('a2'));
    expect(happened.indexOf('other3')).toBeLessThan(happened.lastIndexOf('a3'));
  });
});

describe('the read budget', () => {
  it('refuses an identity once it spent its budget in the window, and says when it may come back', () => {
    const clock = clockAt(1_000_000);
    const budget = new ReadBudget(100, 60_000, clock);
    expect(budget.retryAfterMs('key:a')).toBeNull();
    budget.charge('key:a', 60);
    clock.advance(10_000);
    budget.charge('key:a', 39);
    expect(budget.retryAfterMs('key:a')).toBeNull();
    budget.charge('key:a', 5);
    // 104 ms spent: the first 60 leave the window 60 s after they were charged (at slot granularity).
    const wait = budget.retryAfterMs('key:a')!;
    expect(wait).toBeGreaterThan(45_000);
    expect(wait).toBeLessThanOrEqual(50_000);
    // Another identity has a budget of its own.
    expect(budget.retryAfterMs('key:b')).toBeNull();
    clock.advance(wait);
    expect(budget.retryAfterMs('key:a')).toBeNull();
    expect(budget.spentMs('key:a')).toBe(44);
    clock.advance(60_000);
    expect(budget.spentMs('key:a')).toBe(0);
  });
});
