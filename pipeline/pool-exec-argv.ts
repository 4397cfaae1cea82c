/**
 * Node flags for every Piscina pool's worker threads: the parent's, and require(esm) off.
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
export const POOL_EXEC_ARGV: readonly string[] = [...process.execArgv, '--no-experimental-require-module'];
