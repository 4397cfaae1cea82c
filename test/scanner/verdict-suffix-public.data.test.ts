import { describe, expect, it } from 'vitest';
import { loadSources } from '../../training/scanner-sources.js';
import { scanText } from '../../workers/scan/scan-text.js';
import { sharedData } from '../harness/shared-data.js';

// verdict-suffix.test.ts over every text of the public sets (training/scanner-sources.js):
// whitespace and a citation mark appended never change a verdict, attack or benign.
describe('verdicts on the public sets and what is appended to their texts', () => {
  it('do not change with trailing whitespace or bracketed numbers', async () => {
    const sources = loadSources({ dataDir: sharedData(), root: new URL('../../', import.meta.url).pathname });
    const changed: string[] = [];
    let texts = 0;
    for (const source of sources) {
      for (const { text } of source.items) {
        texts++;
        const base = (await scanText(text, { contentType: 'memory' })).flagged;
        for (const suffix of ['  \n\t ', ' [3]', ' (12)']) {
          if ((await scanText(text + suffix, { contentType: 'memory' })).flagged !== base) changed.push(`${source.name}: ${JSON.stringify(text.slice(0, 80) + suffix)}`);
        }
      }
    }
    expect(changed).toEqual([]);
    expect(texts).toBeGreaterThan(30_000);
  });
});
