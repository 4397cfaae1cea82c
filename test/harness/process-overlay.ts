/**
 * What a gate opened in the test's own process (the unit gate, the in-process server) sets
 * over that process: its environment, read as `gate serve` reads its own (GATE_SECTION_KEY, and
 * what a config names, which its threads read from the environment they start with), and the
 * umask prepareHome sets (077, as for `gate serve`). Files share their worker processes
 * (vitest.config.ts, isolate: false), so the process must be left as it was found: each gate
 * lays its environment over the process's while it runs and lifts it at its stop, in any order
 * (a file's gates need not stop last-opened first), and the umask comes back once no gate is open.
 *
 * Gates open at once in one process share its environment. A gate reads its config, and starts
 * the threads it always runs, in `alone`: with its own layer only, so that another gate's
 * variables (an [org] url the environment pins, say) never become its own; a thread a pool starts
 * later starts with every open layer.
 */
export interface Layer {
  /** Takes this layer's variables off the process again (a second call does nothing). */
  lift(): void;
  /** Runs `start` with this process's own environment and this layer alone over it, then lays every open layer again. */
  alone<T>(start: () => T): T;
}

const layers: Array<Record<string, string>> = [];
/** What the environment held, before any open layer, for each name a layer set. */
const original = new Map<string, string | undefined>();
let originalUmask: number | null = null;

/** Each name a layer set back to what the process held before any layer. */
function restoreOriginal(): void {
  for (const [name, value] of original) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

/** Sets `env` over this process's environment (and the gates' umask) until the layer is lifted. */
export function layOver(env: Record<string, string>): Layer {
  const layer = { ...env };
  if (layers.length === 0) originalUmask = process.umask(0o077);
  layers.push(layer);
  for (const [name, value] of Object.entries(layer)) {
    if (!original.has(name)) original.set(name, process.env[name]);
    process.env[name] = value;
  }
  let lifted = false;
  return {
    lift() {
      if (lifted) return;
      lifted = true;
      layers.splice(layers.indexOf(layer), 1);
      restoreOriginal();
      if (layers.length === 0) {
        original.clear();
        if (originalUmask !== null) process.umask(originalUmask);
        originalUmask = null;
        return;
      }
      // The layers still open, in the order they were laid.
      for (const open of layers) Object.assign(process.env, open);
    },
    alone<T>(start: () => T): T {
      restoreOriginal();
      Object.assign(process.env, layer);
      try {
        return start();
      } finally {
        restoreOriginal();
        for (const open of layers) Object.assign(process.env, open);
      }
    },
  };
}
