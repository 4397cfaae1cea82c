/**
 * V8's heap and stack sizes, which `gate serve`'s own launch line may carry (the bin's
 * `#!/usr/bin/env -S node --max-semi-space-size=…`): a Worker given an explicit `execArgv`
 * refuses every V8 option ("Initiated Worker with invalid execArgv flags"), so a pool
 * started under them would fail the start. They are process-wide V8 flags and reach the
 * worker isolates without being passed.
 */
const PROCESS_WIDE_V8_FLAGS = ['--max-semi-space-size', '--min-semi-space-size', '--max-old-space-size', '--stack-size'];

/** `argv` without the V8 options a Worker's explicit execArgv refuses (both `--flag=N` and `--flag N`). */
export function workerExecArgv(argv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split('=', 1)[0]!.replace(/_/g, '-');
    if (!PROCESS_WIDE_V8_FLAGS.includes(name)) kept.push(arg);
    else if (!arg.includes('=') && /^\d+$/.test(argv[i + 1] ?? '')) i++;
  }
  return kept;
}

/**
 * Node flags for every Piscina pool's worker threads: the parent's (less the process-wide
 * V8 sizes above), and require(esm) off.
 *
 * Piscina loads a worker's entry with require() first and falls back to import(). On Node
 * 20.19+, require() loads our ES-module entries synchronously (require(esm)), and a worker
 * terminated while that synchronous load is instantiating its module graph (a pool
 * destroyed at shutdown, soon after the start made its threads) aborts the whole process:
 * "FATAL ERROR: v8::Module::IsGraphAsync must be used on an instantiated module", SIGABRT.
 * It killed a `gate serve` mid-shutdown (the SIGTERM test's exit by signal) and a vitest
 * fork running an in-process gate. With require(esm) refused in the thread, Piscina's
 * import() loads the entry, and a termination during that load ends it as an exception.
 */
export const POOL_EXEC_ARGV: readonly string[] = [...workerExecArgv(process.execArgv), '--no-experimental-require-module'];
