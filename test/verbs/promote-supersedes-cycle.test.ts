import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { ReplacementRows, expectRefusal } from '../harness/replacement-rows.js';
import { useGate } from '../harness/use-gate.js';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';
import { Journal } from '../../src/journal/journal.js';
import { Projections } from '../../src/projections/projections.js';
import { systemClock } from '../../src/clock.js';

const { gate, keys: { writer, reviewer } } = useGate({ kind: 'unit', keys: { writer: 'agent', reviewer: 'reviewer' } });

describe('gv.promote with supersedes refuses a cycle', () => {
  it('a parent that already supersedes the held child (an edge only a journal written elsewhere could hold) is refused; nothing is promoted', async () => {
    const rows = new ReplacementRows(gate, writer.key, reviewer.key);
    const [parent, child] = [await rows.active(), await rows.held()];
    await gate.stop();
    // The edge parent -> child is appended with the real journal and reducers, signed by the deployment key.
    const db = new Database(join(gate.home, 'gate.db'));
    const projections = new Projections(db, 'main');
    const journal = new Journal(db, DeploymentKey.openOrCreate(join(gate.home, 'deployment.key')), systemClock, projections);
    db.transaction(() => journal.append('relation', null, { artifact_id: parent, space: 'main', child: parent, parent: child, kind: 'supersedes' }))();
    db.close();
    await gate.restart();

    await gate.readBody(reviewer.key, child);
    const answer = await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: child, supersedes: parent });
    expectRefusal(answer, -32010, 'relation_refused');
    expect(answer.error?.message).toContain('cycle');
    expect([await rows.state(child), await rows.state(parent)]).toEqual(['L1_SCANNED', 'ACTIVE']);
    expect((await gate.socket('gv.rebuild')).result.equal).toBe(true);
  });
});
