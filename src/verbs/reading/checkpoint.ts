import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import type { JournalRow } from '../../forms/event.js';
import { eventVisible } from '../../events/event-visibility.js';
import { isServedType } from '../../events/served-event.js';
import type { Caller } from '../../access/caller.js';
import { checkpointAt, keyRotations, keyRotationsSchema } from './log-proofs.js';
import type { House } from '../house.js';

const treeSize = z.number().int().min(1);

/**
 * The journal's signed checkpoint (a C2SP note over its RFC 9162 tree), with the proofs a
 * reader checks it by: `from_size` asks for a consistency proof from an older checkpoint's
 * size (the older tree is a prefix of this one: nothing was rewritten), `event_id` for an
 * event's inclusion proof. An event's proof is served to whoever is served the event: by
 * gv.events (docs/protocol.md#events, rule 3) or by gv.why, which serves every served-type event of a
 * row the caller may read; any other id is answered as unknown.
 */
function eventServed(house: Pick<House, 'store' | 'access'>, caller: Caller, row: JournalRow): boolean {
  if (eventVisible(house, caller, row)) return true;
  if (row.artifact_id === null || !isServedType(row.type)) return false;
  const artifact = house.store.artifacts.byId(row.artifact_id);
  return artifact !== undefined && house.access.visibility.canRead(caller, artifact);
}

const checkpointAnswer = z.object({
  inclusion: z.object({
    event_id: z.string(),
    seq: z.number().int(),
    leaf_index: z.number().int(),
    hashes: z.array(z.string()),
  }).optional(),
  consistency: z.object({ from_size: z.number().int(), hashes: z.array(z.string()) }).optional(),
  deployment_id: z.string(),
  size: z.number().int(),
  root: z.string(),
  checkpoint: z.string(),
  key_rotations: keyRotationsSchema,
});

export const checkpointVerb = defineVerb({
  name: 'gv.checkpoint',
  role: 'reader',
  summary: "The journal's signed checkpoint (tree size, root, the deployment's signature), with a consistency proof from an older size or an event's inclusion proof.",
  params: z.strictObject({
    size: treeSize.optional().describe('the tree size to sign (default: the whole journal now); any size up to it signs the same tree it did then'),
    from_size: treeSize.optional().describe("an older checkpoint's size: answers the consistency proof from it to this one"),
    event_id: z.string().regex(/^[0-9a-f]{64}$/, 'an event id is 64 lower-case hex').optional().describe('an event the caller may read: answers its inclusion proof'),
  }),
  answer: checkpointAnswer,
  uses: ['store', 'access', 'deployment'],
  handler({ caller, store, access, deployment }, p) {
    const head = store.logTree.size();
    if (p.size !== undefined && p.size > head) throw invalidParams(`gv.checkpoint: the journal holds ${head} events, not ${p.size}`, { field: 'size' });
    const size = p.size ?? head;
    if (p.from_size !== undefined && p.from_size > size) {
      throw invalidParams(`gv.checkpoint: from_size ${p.from_size} is past the checkpoint's ${size} events`, { field: 'from_size' });
    }
    let inclusion: { event_id: string; seq: number; leaf_index: number; hashes: string[] } | undefined;
    if (p.event_id !== undefined) {
      const row = store.journalReads.byId(p.event_id);
      if (row === undefined || !eventServed({ store, access }, caller, row)) throw invalidParams(`unknown event: ${p.event_id.slice(0, 16)}`, { field: 'event_id' });
      if (row.seq > size) throw invalidParams(`gv.checkpoint: the event is seq ${row.seq}, past the checkpoint's ${size} events`, { field: 'event_id' });
      const proof = store.logTree.inclusion(row.seq - 1, size);
      inclusion = { event_id: row.event_id, seq: row.seq, leaf_index: proof.leaf_index, hashes: proof.hashes.map((h) => h.toString('base64')) };
    }
    return {
      deployment_id: deployment.deploymentId,
      size,
      root: store.logTree.root(size).toString('base64'),
      checkpoint: checkpointAt({ store, deployment }, size),
      ...keyRotations({ store, deployment }),
      ...(p.from_size === undefined ? {} : { consistency: { from_size: p.from_size, hashes: store.logTree.consistency(p.from_size, size).map((h) => h.toString('base64')) } }),
      ...(inclusion === undefined ? {} : { inclusion }),
    };
  },
});
