/**
 * The smallest of a list of regions (code spans, fenced blocks, quotations) that holds a
 * stretch of text, asked once a finding, and the regions a stretch holds. Filtered and sorted for each finding, a text of
 * many findings among as many regions cost the product of the two: a MiB of inline code
 * spans each holding a command took twenty seconds to judge (docs/scanner.md, "Bounded
 * scan time").
 *
 * The regions are dealt, in their order, into chains in which each region starts where the
 * one before it has ended; each detector's regions come that way (one pass of one pattern,
 * or one line at a time), so there are a few chains. In a chain only the last region that
 * starts at or before a stretch can hold it, found by a binary search. Past MAX_CHAINS
 * (regions that overlap every way) the list is read whole, as it was.
 */
import type { Region } from './mention-context.js';

const MAX_CHAINS = 32;

export class RegionIndex {
  /** Each chain: indexes into `regions`, by start, each region ending at or before the next starts. */
  private readonly chains: number[][] | null;

  constructor(private readonly regions: readonly Region[]) {
    this.chains = chainsOf(regions);
  }

  /**
   * The shortest region holding [start, end), the first in the list's order among as short;
   * undefined where none does: what `regions.filter(([s, e]) => s <= start && end <= e)`
   * sorted by length gives first.
   */
  smallestHolding(start: number, end: number): Region | undefined {
    // An empty stretch may sit at the end of several regions of a chain: read whole.
    if (this.chains === null || start >= end) {
      return this.regions.filter(([s, e]) => s <= start && end <= e).sort((a, b) => a[1] - a[0] - (b[1] - b[0]))[0];
    }
    let best = -1;
    let bestLength = Infinity;
    for (const chain of this.chains) {
      // The last region of the chain starting at or before `start`: every one before it ends
      // by the time it starts, so before `end`.
      let lo = 0;
      let hi = chain.length - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        if (this.regions[chain[mid]!]![0] <= start) {
          found = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      if (found === -1) continue;
      const index = chain[found]!;
      const [s, e] = this.regions[index]!;
      if (end > e) continue;
      const length = e - s;
      if (length < bestLength || (length === bestLength && index < best)) {
        best = index;
        bestLength = length;
      }
    }
    return best === -1 ? undefined : this.regions[best];
  }

  /**
   * The regions inside [start, end), in the list's order: what
   * `regions.filter(([s, e]) => start <= s && e <= end)` gives.
   */
  allWithin(start: number, end: number): Region[] {
    if (this.chains === null) return this.regions.filter(([s, e]) => start <= s && e <= end);
    const inside: number[] = [];
    for (const chain of this.chains) {
      // The first region of the chain starting at or after `start`; from there regions end
      // in order too, so the first to end past `end` closes the run.
      let lo = 0;
      let hi = chain.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.regions[chain[mid]!]![0] < start) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < chain.length && this.regions[chain[k]!]![1] <= end; k++) inside.push(chain[k]!);
    }
    return inside.sort((a, b) => a - b).map((i) => this.regions[i]!);
  }
}

/** The regions dealt into chains in their order, or null past MAX_CHAINS (or for a region ending before it starts). */
function chainsOf(regions: readonly Region[]): number[][] | null {
  const chains: number[][] = [];
  for (let i = 0; i < regions.length; i++) {
    const [start, end] = regions[i]!;
    if (end < start) return null;
    let chain: number[] | undefined;
    for (const c of chains) {
      if (regions[c[c.length - 1]!]![1] <= start) {
        chain = c;
        break;
      }
    }
    if (chain === undefined) {
      if (chains.length === MAX_CHAINS) return null;
      chain = [];
      chains.push(chain);
    }
    chain.push(i);
  }
  return chains;
}
