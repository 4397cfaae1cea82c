import { z } from 'zod';
import { defineVerb } from './define-verb.js';
import { artifactIdParam } from './param-types.js';
import { reasonOf } from './row-metadata.js';
import { invalidParams } from '../gate-error.js';
import { isPromoted } from '../domain/states.js';
import { canonicalJson, sha256Hex } from '../journal/canonical-json.js';
import type { Gate } from '../gate.js';
import { approvalOf } from './approval.js';
import { commentsFor } from './comments.js';
import { visibleRelations } from './relations.js';
import { tipOf } from './tip.js';
import { pendingSupersedes } from './replacement-group-view.js';
import { membersOf } from './node-members.js';
import { refusalOf } from './node-refusal.js';
import type { Caller } from '../access/caller.js';

function nodeTip(gate: Gate, caller: Caller, id: string) {
  const tip = tipOf(gate, caller, id);
  return { artifact_id: tip.head, pinned: tip.pin !== null, chain_length: tip.chain.length };
}

export const PREVIEW_CHARS = 280;

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
    const approval = approvalOf(gate, caller, row);
    const signers = approval['signers'] as Array<{ identity: string; class: string; decision: string }>;
    const answer: Record<string, unknown> = {
      artifact_id: row.artifact_id,
      status: { state: row.state, reason: reasonOf(row), provisional: row.provisional === 1 },
      approval,
      comments: commentsFor(gate, caller, row, false).comments,
      relations: visibleRelations(gate, caller, row.artifact_id),
      tip: nodeTip(gate, caller, row.artifact_id),
      members: membersOf(gate, caller, row),
      preview: masked === null ? null : masked.slice(0, PREVIEW_CHARS),
      preview_chars: masked === null ? 0 : masked.length,
      self_authored: own,
      supersedes: pendingSupersedes(gate, caller, row.artifact_id),
    };
    const refusal = refusalOf(gate, caller, row);
    if (refusal !== null) answer['refusal'] = refusal;
    if (p.body === true) {
      // A body that is not UTF-8 text (an archive, a bundle's image) is not served as if it were.
      const body = gate.artifacts.text(row.content_hash);
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
