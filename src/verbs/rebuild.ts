import { z } from 'zod';
import { join } from 'node:path';
import { defineVerb } from './define-verb.js';
import { internalError } from '../gate-error.js';
import { rebuildAndCompare } from '../projections/rebuild.js';

export const rebuildVerb = defineVerb({
  name: 'gv.rebuild',
  role: 'admin',
  summary: 'Replay the journal into fresh tables and compare them with the live views.',
  params: z.strictObject({}),
  handler({ gate }) {
    // Whatever is queued commits first, so the comparison sees one settled journal.
    gate.writer.flush();
    const report = rebuildAndCompare(gate.db, join(gate.paths.home, 'rebuild-scratch.db'));
    if (!report.equal) {
      const differing = Object.entries(report.tables).filter(([, t]) => !t.equal).map(([name]) => name);
      gate.log.error(`rebuild differs from live state in: ${differing.join(', ')}`);
      throw internalError(`rebuild differs from live state in: ${differing.join(', ')}`, { ...report, differing });
    }
    return report;
  },
});
