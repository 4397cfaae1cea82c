import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { spaceParam } from '../param-types.js';
import { visibleRowsClause } from '../../access/visible-rows.js';
import { rowMetadata } from '../../projections/row-metadata.js';
import { findingGroups } from '../review/finding-groups.js';
import { ARTIFACT_STATES, QUARANTINE_STATES } from '../../domain/states.js';
import { evidenceAskedAnswer, rowMetadataAnswer } from '../answer-types.js';
import { atLeast } from '../../domain/roles.js';
import { openEvidenceRequest } from '../../review/evidence-requests.js';
import type { Caller } from '../../access/caller.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import type { House } from '../house.js';
import { mapInPieces, PIECE, rowidWindows } from '../../long-reads/read-windows.js';
import type { LongRead } from '../../long-reads/long-reads.js';

/**
 * What a reviewer asked for, on a row sent back for evidence: to its writer (who is to add
 * it) and to reviewers, in the listings that show a row's state; absent otherwise.
 */
function evidenceAsked(house: Pick<House, 'store'>, caller: Caller, row: ArtifactRow): { evidence_asked?: string } {
  if (row.state !== 'NEEDS_EVIDENCE' || (row.writer_identity !== caller.identity && !atLeast(caller.role, 'reviewer'))) return {};
  const open = openEvidenceRequest(house, row);
  return open === null ? {} : { evidence_asked: open.asks };
}

const inventoryAnswer = z.object({
  artifacts: z.array(rowMetadataAnswer.extend({ evidence_asked: evidenceAskedAnswer })),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  counts: z.record(z.string(), z.number().int()).describe('rows you may see, by state'),
  spaces: z.array(z.string()),
  states: z.array(z.enum(ARTIFACT_STATES)),
});

export const inventoryVerb = defineVerb({
  name: 'gv.inventory',
  role: 'reader',
  summary: 'Page through the rows you may see, filtered by state, space and a substring; metadata only.',
  params: z.strictObject({
    states: z.array(z.string()).max(32).optional(),
    spaces: z.array(spaceParam).max(64).optional(),
    q: z.string().max(200).optional(),
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).optional(),
  }),
  answer: inventoryAnswer,
  uses: ['store', 'access', 'reads', 'clock'],
  handler({ caller, store, access, reads, clock }, p) {
    const offset = p.offset ?? 0;
    const limit = Math.min(p.limit ?? 50, 200);
    const visible = visibleRowsClause({ store, access }, caller);
    // Unknown state names are ignored (docs/protocol.md#gvinventory), not refused.
    const states = (p.states ?? []).filter((s) => (ARTIFACT_STATES as readonly string[]).includes(s));
    const filter = { states: p.states === undefined ? undefined : states, spaces: p.spaces, q: p.q };
    // A walk of the whole view, newest rows first, a window a chunk: the counts cover every matching row, the page skips `offset` of them.
    return reads.run(caller, async (read) => {
      const inventory = read.store.artifacts.inventory(visible, filter);
      const rows: ArtifactRow[] = [];
      const counts: Record<string, number> = {};
      let skip = offset;
      for await (const window of rowidWindows(read, read.store.artifacts.lastRowid(), 'newest')) {
        let matching = 0;
        for (const { state, n } of inventory.counts(window)) {
          counts[state] = (counts[state] ?? 0) + n;
          matching += n;
        }
        if (rows.length === limit || matching === 0) continue;
        if (skip >= matching) {
          skip -= matching;
          continue;
        }
        rows.push(...inventory.rows(window, limit - rows.length, skip));
        skip = 0;
      }
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      const now = clock.now();
      return {
        artifacts: rows.map((r) => ({ ...rowMetadata(r, caller, now), ...evidenceAsked({ store: read.store }, caller, r) })),
        total,
        offset,
        limit,
        counts,
        spaces: store.spaceNames().filter((s) => access.visibility.seesEverything(caller) || access.capabilities.has(caller, s, 'read')),
        states: [...ARTIFACT_STATES],
      };
    });
  },
});

/** A waiting row as gv.pending and gate.pending list it: metadata only. */
export const pendingRowAnswer = z.object({
  artifact_id: z.string(),
  state: z.string(),
  kind: z.string().nullable(),
  content_type: z.string(),
  trust_class: z.string(),
  space: z.string(),
  workarea: z.string().nullable(),
  findings_count: z.number().int(),
  findings: z.number().int().describe('finding groups: one per scan and kind'),
  ingest_ts: z.number().int(),
  age_ms: z.number().int(),
  self_authored: z.boolean().describe('you wrote it (nobody may promote their own claim)'),
  evidence_asked: evidenceAskedAnswer,
});

export const pendingAnswer = z.object({
  pending: z.array(pendingRowAnswer),
  truncated: z.boolean().describe('more rows wait than the limit listed'),
});

export const pendingVerb = defineVerb({
  name: 'gv.pending',
  role: 'reader',
  summary: 'Rows waiting in quarantine that you may see: ids, types, states, ages, finding counts and finding groups.',
  // The protocol names a default and no ceiling (docs/protocol.md#gvpending; unlike gv.inventory and gv.events): the answer is bounded by the held rows the caller may see.
  params: z.strictObject({ limit: z.number().int().min(1).optional() }),
  answer: pendingAnswer,
  uses: ['access', 'reads', 'clock'],
  handler({ caller, access, reads, clock }, p) {
    const limit = p.limit ?? 100;
    // C6 on held rows: every writer's from reviewer up; below, a caller may see no held row but its own.
    const writer = access.visibility.seesEverything(caller) ? null : caller.identity;
    // Each quarantine state read in rowid order from its index, a piece a chunk, merged oldest first, then shaped a piece a chunk.
    return reads.run(caller, async (read) => {
      const rows = await oldestHeld(read, writer, limit + 1);
      const now = clock.now();
      const pending = await mapInPieces(read, rows.slice(0, limit), (r) => {
        const m = rowMetadata(r, caller, now);
        return {
          artifact_id: m.artifact_id,
          state: m.state,
          kind: m.kind,
          content_type: m.content_type,
          trust_class: m.trust_class,
          space: m.space,
          workarea: m.workarea,
          findings_count: m.findings_count,
          findings: m.findings_count === 0 ? 0 : findingGroups({ store: read.store }, m.artifact_id),
          ingest_ts: m.ts,
          age_ms: m.age_ms,
          self_authored: m.self_authored,
          ...evidenceAsked({ store: read.store }, caller, r),
        };
      });
      return { pending, truncated: rows.length > limit };
    });
  },
});

/**
 * The oldest `count` rows in quarantine (all writers', or one writer's), in rowid order: each
 * state's rows are read from its index a piece at a time and the heads merged, one round of
 * reads a chunk, so no statement reads more than a piece however many rows are held.
 */
async function oldestHeld(read: LongRead, writer: string | null, count: number): Promise<ArtifactRow[]> {
  const after = read.store.artifacts.inStateAfter(writer);
  const streams = [...QUARANTINE_STATES].map((state) => ({ state, rows: [] as ArtifactRow[], next: 0, last: 0, done: false }));
  const out: ArtifactRow[] = [];
  for (let round = 0; out.length < count; round++) {
    if (round > 0) await read.next();
    for (const s of streams) {
      if (s.done || s.next < s.rows.length) continue;
      s.rows = after(s.state, s.last, PIECE);
      s.next = 0;
      s.done = s.rows.length < PIECE;
      if (s.rows.length > 0) s.last = s.rows[s.rows.length - 1]!.rowid;
    }
    // Take the oldest head until a stream that may hold more has run dry: it is read again next round.
    for (;;) {
      let oldest: (typeof streams)[number] | undefined;
      for (const s of streams) if (s.next < s.rows.length && (oldest === undefined || s.rows[s.next]!.rowid < oldest.rows[oldest.next]!.rowid)) oldest = s;
      if (oldest === undefined || out.length === count) break;
      out.push(oldest.rows[oldest.next++]!);
      if (oldest.next === oldest.rows.length && !oldest.done) break;
    }
    if (streams.every((s) => s.done && s.next === s.rows.length)) break;
  }
  return out;
}
