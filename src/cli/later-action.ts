/**
 * A command's action whose module loads only when the command runs: `gate org serve` then
 * never loads the SQLite gate, and `gate --help` loads no command at all.
 */
export function later<K extends string, M extends Record<K, (...args: never[]) => unknown>>(
  load: () => Promise<M>,
  name: K,
): (...args: Parameters<M[K]>) => Promise<void> {
  return async (...args) => {
    await (await load())[name](...args);
  };
}
