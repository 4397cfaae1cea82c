import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importGraph } from './import-graph.js';

/**
 * Threads are made one way (docs/architecture.md#parts-with-a-life): every Piscina pool by
 * newPool and every single worker thread by newThread, both in src/threads.ts.
 */
const ROOT = join(import.meta.dirname, '../..');
const FACTORY = 'src/threads.ts';
const { files } = importGraph(ROOT, ['src', 'pipeline', 'workers', 'packages']);

/** The source files that construct a thread or a pool themselves. */
const making = (pattern: RegExp) => files.filter((f) => pattern.test(readFileSync(join(ROOT, f), 'utf8')));

describe('threads and pools', () => {
  it('are constructed only in src/threads.ts', () => {
    expect(making(/new\s+Piscina\s*\(/)).toEqual([FACTORY]);
    expect(making(/new\s+Worker\s*\(/)).toEqual([FACTORY]);
  });

  it('are made through the factory by every file that holds one', () => {
    const factory = (name: 'newPool' | 'newThread') => making(new RegExp(`\\b${name}\\(`)).filter((f) => f !== FACTORY).sort();
    expect(factory('newPool')).toEqual([
      'pipeline/bounded-pool.ts',
      'pipeline/embed-stage.ts',
      'pipeline/network-pool.ts',
      'pipeline/scan-stage.ts',
      'src/org/persons-copies.ts',
      'src/org/submission-checks.ts',
      'src/recall/code-scan-pool.ts',
    ]);
    expect(factory('newThread')).toEqual(['src/journal/signing-thread.ts', 'src/journal/wal-checkpointer.ts', 'src/recall/held-writer-thread.ts']);
  });
});
