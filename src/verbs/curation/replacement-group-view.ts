import { z } from 'zod';
import { invalidParams } from '../../gate-error.js';
import { canonicalJson, sha256Hex } from '../../forms/canonical-json.js';
import { namedRows, type Group } from '../../projections/replacement-group-reads.js';
import { groupVisible } from '../../access/group-visibility.js';
import type { Caller } from '../../access/caller.js';
import type { House } from '../house.js';

export const groupReads = (house: Pick<House, 'store'>) => house.store.replacementGroups;

/** A group's id as the verbs take it: a derived `rg:<hex>` or a caller's own name. */
export const GROUP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Rows the given row supersedes, directly or through older supersessions. */
function ancestors(house: Pick<House, 'store'>, id: string): string[] {
  const seen = new Set<string>();
  const stack = house.store.relations.supersededParents(id);
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...house.store.relations.supersededParents(next));
  }
  return [...seen].sort();
}

/**
 * What activation reads, and nothing else: the group and its preparations, the state of
 * each row it names, the supersedes edges touching them and what each parent already
 * supersedes (the cycle check), and the other groups naming any of its rows. An ingest
 * or a decision on an unrelated row leaves it unchanged.
 */
export function groupRevision(house: Pick<House, 'store'>, group: Group): string {
  const named = namedRows(group);
  const edges = new Set<string>();
  for (const id of named) {
    for (const e of house.store.relations.edgesOf(id)) {
      if (e.kind === 'supersedes') edges.add(canonicalJson([e.child, e.parent, e.group_id]));
    }
  }
  const competing = new Map<string, string>();
  for (const id of named) {
    for (const other of groupReads(house).naming(id)) {
      if (other.group_id !== group.group_id) competing.set(other.group_id, other.state);
    }
  }
  return sha256Hex(
    canonicalJson({
      group_id: group.group_id,
      state: group.state,
      prepared: group.children.filter((c) => c.prepared_seq !== null).map((c) => c.artifact_id),
      rows: named.map((id) => [id, house.store.artifacts.byId(id)?.state ?? null]),
      edges: [...edges].sort(),
      reach: group.parents.map((id) => [id, ancestors(house, id)]),
      competing: [...competing.entries()].sort(([a], [b]) => (a < b ? -1 : 1)),
    }),
  );
}

/** A group as every replacement verb answers it (groupStatus below). */
export const replacementGroupAnswer = z.object({
  group_id: z.string(),
  state: z.enum(['PENDING', 'ACTIVATED', 'ABORTED']),
  operation: z.enum(['split', 'merge', 'supersede']),
  space: z.string(),
  parent_ids: z.array(z.string()),
  child_ids: z.array(z.string()),
  prepared: z.array(z.string()).describe('children prepared so far'),
  pending_children: z.array(z.string()),
  rows: z.array(z.object({ artifact_id: z.string(), role: z.string(), state: z.string().nullable() })),
  reason: z.string(),
  manifest_digest: z.string(),
  proposer: z.string().nullable(),
  proposed_event: z.string(),
  proposed_ts: z.number().int(),
  state_ts: z.number().int(),
  policy_revision: z.string().optional(),
  aborted_event: z.string().nullable().optional(),
  aborted_by: z.string().nullable().optional(),
  abort_reason: z.string().nullable().optional(),
  activated_event: z.string().nullable().optional(),
  activated_by: z.string().nullable().optional(),
  self_signed: z.boolean().optional(),
  revision: z.string().describe('give it back as if_revision to act only on the group as read'),
});

/** A group as every replacement verb answers it. */
export function groupStatus(house: Pick<House, 'store'>, group: Group) {
  const prepared = group.children.filter((c) => c.prepared_seq !== null).map((c) => c.artifact_id);
  const row = (id: string, role: string) => ({ artifact_id: id, role, state: house.store.artifacts.byId(id)?.state ?? null });
  return {
    group_id: group.group_id,
    state: group.state,
    operation: group.operation,
    space: group.space,
    parent_ids: group.parents,
    child_ids: group.children.map((c) => c.artifact_id),
    prepared,
    pending_children: group.children.filter((c) => c.prepared_seq === null).map((c) => c.artifact_id),
    rows: [...group.parents.map((id) => row(id, 'parent')), ...group.children.map((c) => row(c.artifact_id, 'child'))],
    reason: group.reason,
    manifest_digest: group.manifest_digest,
    ...(group.policy_revision === null ? {} : { policy_revision: group.policy_revision }),
    proposer: group.proposer,
    proposed_event: group.proposed_event,
    proposed_ts: group.proposed_ts,
    state_ts: group.state_ts,
    ...(group.state === 'ACTIVATED'
      ? { activated_event: group.closed_event, activated_by: group.closed_by, self_signed: group.self_signed === 1 }
      : {}),
    ...(group.state === 'ABORTED'
      ? { aborted_event: group.closed_event, aborted_by: group.closed_by, abort_reason: group.abort_reason }
      : {}),
    revision: groupRevision(house, group),
  };
}

/** A group a reviewer verb names; an unknown id is refused by name. */
export function knownGroup(house: Pick<House, 'store'>, groupId: string): Group {
  const group = groupReads(house).byId(groupId);
  if (group === undefined) throw invalidParams(`unknown replacement group: ${groupId}`, { field: 'group_id' });
  return group;
}

/** The pending group a row is a child of, as gv.node's `supersedes` serves it (the oldest proposal, when several). */
export function pendingSupersedes(house: Pick<House, 'store' | 'access'>, caller: Caller, artifactId: string) {
  for (const named of groupReads(house).naming(artifactId)) {
    if (named.state !== 'PENDING' || named.member_role !== 'child') continue;
    const group = groupReads(house).byId(named.group_id)!;
    if (!groupVisible(house, caller, group)) continue;
    return { artifact_ids: group.parents, operation: group.operation, via: 'replacement_group', group_id: group.group_id };
  }
  return null;
}
