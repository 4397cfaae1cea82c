import { z } from 'zod';
import { defineVerb } from './define-verb.js';
import { artifactIdParam } from './param-types.js';
import { reasonOf } from './row-metadata.js';
import { invalidParams } from '../gate-error.js';
import { isPromoted } from '../domain/states.js';
import { canonicalJson, sha256Hex } from '../journal/canonical-json.js';
import type { JournalRow } from '../journal/event.js';
import type { Gate } from '../gate.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import { QUORUM_PROFILE } from './liveness.js';
import { visibleRelations } from './relations.js';
import { tipOf } from './tip.js';
import { pendingSupersedes } from './replacement-group-view.js';
import type { Caller } from '../access/caller.js';

function nodeTip(gate: Gate, caller: Caller, id: string) {
  const tip = tipOf(gate, caller, id);
  return { artifact_id: tip.head, pinned: tip.pin !== null, chain_length: tip.chain.length };
}

export const PREVIEW_CHARS = 280;
const SIGNING_TYPES = ['promote', 'reject', 'demote'];

/** A signer's class (spec 2 gv.approval): people are human; keys and socket peers act as agents. */
const signerClass = (identity: string | null) => (identity === null ? 'deployment' : identity.includes('|') ? 'human' : 'agent');

function signersOf(gate: Gate, row: ArtifactRow) {
  const rows = gate.db
    .prepare(`SELECT * FROM journal WHERE artifact_id = ? AND type IN (${SIGNING_TYPES.map(() => '?').join(',')}) ORDER BY seq`)
    .all(row.artifact_id, ...SIGNING_TYPES) as JournalRow[];
  return rows.map((r) => ({
    identity: r.by,
    class: signerClass(r.by),
    decision: r.type,
    counts: r.type === 'promote' && r.by !== row.writer_identity,
    event_id: r.event_id,
  }));
}

export const nodeVerb = defineVerb({
  name: 'gv.node',
  role: 'reader',
  summary: 'One row as a node: status, approval, relations, a bounded masked preview; with body, its content.',
  params: z.strictObject({ artifact_id: artifactIdParam, body: z.boolean().optional() }),
  handler({ gate, caller }, p) {
    const row = gate.readableArtifact(caller, p.artifact_id);
    const own = row.writer_identity === caller.identity;
    if (p.body === true && !own && !isPromoted(row.state)) {
      throw invalidParams('the body of a row that is not promoted is served only to its writer; reviewers read the masked preview');
    }
    const masked = row.masked_hash === null ? null : gate.artifacts.body(row.masked_hash);
    const signers = signersOf(gate, row);
    const answer: Record<string, unknown> = {
      artifact_id: row.artifact_id,
      status: { state: row.state, reason: reasonOf(row), provisional: row.provisional === 1 },
      approval: {
        quorum_profile: QUORUM_PROFILE,
        k_required: 1,
        k_have: signers.filter((s) => s.counts).length,
        signers: signers.map(({ identity, class: c, decision, counts }) => ({ identity, class: c, decision, counts })),
      },
      // Comments are journal facts of a later verb; a row has them only once that verb writes them.
      comments: [],
      relations: visibleRelations(gate, caller, row.artifact_id),
      tip: nodeTip(gate, caller, row.artifact_id),
      members: [],
      preview: masked === null ? null : masked.slice(0, PREVIEW_CHARS),
      preview_chars: masked === null ? 0 : masked.length,
      self_authored: own,
      supersedes: pendingSupersedes(gate, caller, row.artifact_id),
    };
    if (p.body === true) {
      const body = gate.artifacts.body(row.content_hash);
      Object.assign(answer, {
        body,
        body_exact: body !== null,
        content_hash: row.content_hash,
        size_bytes: row.size_bytes,
        source_uri: row.source_uri,
        signers: signers.map(({ identity, class: c, decision }) => ({ identity, class: c, decision })),
      });
    }
    answer['revision'] = sha256Hex(canonicalJson(answer));
    return answer;
  },
});
