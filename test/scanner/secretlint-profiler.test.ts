import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { scanText } from '../../workers/scan/scan-text.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('secretlint profiler', () => {
  it('leaves no performance marks behind, so scans do not slow down as they accumulate', async () => {
    const text = 'deploy with ghp_TestOnlyNotARealTokenx7Kq2Zp9Lm4Rv8W and the secret rotation job';
    const coreMarks = (): number => performance.getEntriesByType('mark').filter((e) => e.name.startsWith('@core>')).length;
    const before = coreMarks();
    for (let i = 0; i < 50; i++) {
      const result = await scanText(text);
      expect(result.findings.map((f) => f.kind)).toEqual(['secret.github-token']);
      await turn();
    }
    expect(coreMarks()).toBe(before);
  });
});
