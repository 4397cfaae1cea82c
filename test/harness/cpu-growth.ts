/**
 * How a cost grows with its input, judged without a clock (test/README.md, "Waiting": times
 * belong in bench/). The CPU time of this process (process.cpuUsage, user and system: the time
 * the work took, not the time the machine let it run) for a small input and for one 16 times
 * larger, the cheapest of a few runs each, compared as a ratio: linear work grows about 16
 * times, work that reads the rest of the text again from every place about 256 times. The small
 * input is run 16 times over for its time, so that its time is not the clock's grain.
 */

export const GROWTH = 16;
/** The most a 16-times larger input may cost, as linear-rules.test.ts and scan-text-linear.test.ts allow: slack for a noisy machine, far under the 256 times of quadratic work. */
export const GROWTH_LIMIT = 40;

/** The CPU milliseconds of the cheapest of `runs` runs of `work` (at least 1). */
export async function cpuMs(work: () => unknown, runs = 3): Promise<number> {
  let best = Infinity;
  for (let n = 0; n < runs; n++) {
    const t0 = process.cpuUsage();
    await work();
    const { user, system } = process.cpuUsage(t0);
    best = Math.min(best, (user + system) / 1000);
  }
  return Math.max(best, 1);
}

/**
 * The ratio of the CPU time of `work(make(GROWTH * n))` to that of `work(make(n))`, after one
 * warming run of the small input, with both times for a failure's message.
 */
export async function cpuGrowth<T>(make: (n: number) => T, n: number, work: (input: T) => unknown, runs = 3): Promise<{ ratio: number; smallMs: number; largeMs: number; said: string }> {
  const small = make(n);
  const large = make(GROWTH * n);
  await work(small);
  // The small input GROWTH times over (as many bytes as the large one): a time well above the
  // clock's grain, so the ratio is not a small run's noise.
  const smallMs = (await cpuMs(async () => {
    for (let k = 0; k < GROWTH; k++) await work(small);
  }, runs)) / GROWTH;
  const largeMs = await cpuMs(() => work(large), runs);
  const ratio = largeMs / smallMs;
  return { ratio, smallMs, largeMs, said: `${smallMs.toFixed(1)} ms for ${n}, ${largeMs.toFixed(1)} ms for ${GROWTH * n}: ${ratio.toFixed(1)} times` };
}
