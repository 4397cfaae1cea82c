import type { Caller } from '../access/caller.js';
import { answerBody } from '../domain/body-forms.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { Store } from '../store/store.js';
import type { AccessPart } from '../access/access-part.js';

const withPrefix = (id: string) => (id.startsWith('sha256:') ? id : `sha256:${id}`);

/**
 * What an answer says it does to earlier answers. Only an id the viewer may read is told:
 * naming another identity's held answer would tell that it exists.
 */
function answerMoves(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, row: ArtifactRow): { replaces?: string; cancels?: string } {
  const text = house.store.artifacts.servedBody(row);
  if (text === null) return {};
  let parsed;
  try {
    parsed = answerBody.safeParse(JSON.parse(text));
  } catch {
    return {};
  }
  if (!parsed.success) return {};
  const out: { replaces?: string; cancels?: string } = {};
  for (const field of ['replaces', 'cancels'] as const) {
    const id = parsed.data[field];
    if (id === undefined) continue;
    const named = house.store.artifacts.byId(withPrefix(id));
    if (named !== undefined && house.access.visibility.canRead(caller, named)) out[field] = named.artifact_id;
  }
  return out;
}

/** The rows the viewer may read that name a question in their derives_from, oldest first. */
export function citedBy(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, questionId: string) {
  return house.store.relations
    .derivedFrom(questionId)
    .map((id) => house.store.artifacts.byId(id))
    .filter((row): row is ArtifactRow => row !== undefined && house.access.visibility.canRead(caller, row))
    .sort((a, b) => a.ts - b.ts || a.rowid - b.rowid)
    .map((row) => ({
      artifact_id: row.artifact_id,
      kind: row.kind,
      state: row.state,
      writer_identity: row.writer_identity,
      writer_kind: row.writer_kind,
      ts: row.ts,
      state_ts: row.state_ts,
      ...(row.kind === 'answer' ? answerMoves(house, caller, row) : {}),
    }));
}
