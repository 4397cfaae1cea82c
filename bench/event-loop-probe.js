// Loaded into a benchmarked gate with `node --import bench/event-loop-probe.js`: samples
// the main thread's event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution)
// and, on SIGUSR2, writes the percentiles since the last signal to $GATE_BENCH_ELD_FILE
// (milliseconds) and starts over. The gate itself knows nothing of it.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';

const file = process.env.GATE_BENCH_ELD_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns) => Math.round((ns / 1e6) * 100) / 100;
    writeFileSync(file, JSON.stringify({ p50_ms: ms(h.percentile(50)), p99_ms: ms(h.percentile(99)), max_ms: ms(h.max), samples: h.count }));
    h.reset();
  });
}
