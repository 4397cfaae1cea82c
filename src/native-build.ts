import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The path of a file node-gyp built from binding.gyp (`build/Release/<file>`). Modules run
 * both as src/**.ts (vitest) and dist/src/**.js (after tsc), at different depths, so the
 * package root is found rather than assumed: the first directory up holding binding.gyp.
 */
export function nativeBuildPath(file: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'binding.gyp'))) {
      const path = join(dir, 'build', 'Release', file);
      if (!existsSync(path)) throw new Error(`${path} is missing; run npm install (it builds it with node-gyp)`);
      return path;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no binding.gyp above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
