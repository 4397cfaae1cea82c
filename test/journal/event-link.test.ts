import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';
import { canonicalJson, sha256Hex } from '../../src/forms/canonical-json.js';
import { linkProblem, signatureHolds, type StoredEvent } from '../../src/forms/event-link.js';

/**
 * The one link check behind `gate verify` and `gate org verify`, on a row shaped like the
 * org gate's log (no ts or by column kept beside the body): each way a stored event can
 * stop holding is named. verify-tamper.test.ts runs the same rules on the gate's journal.
 */
const key = DeploymentKey.openOrCreate(join(mkdtempSync(join(tmpdir(), 'gate-link-')), 'deployment.key'));

function stored(seq: number, prev: string | null, type = 'countersign'): StoredEvent {
  const body = canonicalJson({ v: 1, seq, type, ts: 1_700_000_000_000 + seq, prev, by: null, data: { artifact_id: `sha256:${'a'.repeat(64)}` } });
  return { seq, event_id: sha256Hex(body), prev, type, body, sig: key.sign(body) };
}

describe('a stored event as the next link of a signed chain', () => {
  const first = stored(1, null);
  const second = stored(2, first.event_id);

  it('holds when it is canonical, hashed, in order, linked and signed', () => {
    expect(linkProblem(first, 1, null)).toHaveProperty('envelope');
    expect(linkProblem(second, 2, first.event_id)).toHaveProperty('envelope');
    expect(signatureHolds(key.deploymentId, second)).toBe(true);
  });

  it('names each way it stops holding', () => {
    const problem = (row: StoredEvent, seq = 2, prev: string | null = first.event_id) => (linkProblem(row, seq, prev) as { problem?: string }).problem;
    expect(problem(second, 3)).toMatch(/follows 2/);
    expect(problem({ ...second, body: 'not json' })).toBe('body is not JSON');
    const spaced = second.body.replace(':', ': ');
    expect(problem({ ...second, body: spaced, event_id: sha256Hex(spaced) })).toBe('body is not in canonical form');
    expect(problem({ ...second, event_id: sha256Hex('other') })).toBe('event id is not the hash of the body');
    expect(problem(second, 2, sha256Hex('another head'))).toBe('prev does not name the previous event');
    expect(problem({ ...second, type: 'refuse' })).toBe('a stored column differs from the signed body');
    expect(signatureHolds(key.deploymentId, { ...second, sig: first.sig })).toBe(false);
    expect(signatureHolds(key.deploymentId, { ...second, sig: 'not a signature' })).toBe(false);
  });
});
