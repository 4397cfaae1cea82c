import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { producerParam, spaceParam, workareaParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { invalidParams } from '../../gate-error.js';
import { producerOf, type ArtifactRow } from '../../projections/artifact-reads.js';
import { changedAnswer, producerAnswer } from '../answer-types.js';

export const WORKAREA_RELATION_KINDS = ['opened_by', 'continues', 'derived_from'] as const;
/** Rows listed per part of gv.workarea's answer, newest first; the counts always cover every row. */
export const WORKAREA_ROWS_LISTED = 500;

const noteParam = z.string().min(1).max(500);

export const completeAnswer = z.object({
  space: z.string(),
  name: z.string(),
  identity: z.string(),
  state: z.literal('complete'),
  ...changedAnswer,
});

export const completeVerb = defineVerb({
  name: 'gv.complete',
  role: 'agent',
  summary: "Mark an identity's part of a work area complete; later writes there by it are refused.",
  params: z.strictObject({
    workarea: workareaParam,
    space: spaceParam.optional(),
    note: noteParam.optional(),
    identity: z.string().min(1).max(256).optional(),
  }),
  answer: completeAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    const space = requireSpace({ store }, p.space ?? 'main');
    const identity = p.identity ?? caller.identity;
    if (identity !== caller.identity && !access.visibility.seesEverything(caller)) {
      throw invalidParams(`completing another identity's part needs role reviewer; the caller has role ${caller.role}`, {
        field: 'identity',
        required: 'reviewer',
        role: caller.role,
      });
    }
    access.capabilities.require(caller, space, 'contribute');
    const reads = store.workareas;
    return store.writer.write(() => {
      const part = reads.part(space, p.workarea, identity);
      if (part === undefined) {
        const who = identity === caller.identity ? 'you never wrote' : `${identity} never wrote`;
        throw invalidParams(`${who} into work area ${p.workarea} in space ${space}`, { field: 'workarea' });
      }
      const answer = { space, name: p.workarea, identity, state: 'complete' as const };
      if (part.completed_seq !== null) return { ...answer, changed: false };
      const event = store.journal.append('workarea-completed', caller.identity, {
        space,
        workarea: p.workarea,
        identity,
        ...(p.note === undefined ? {} : { note: p.note }),
      });
      return { ...answer, changed: true, event_id: event.event_id };
    });
  },
});

export const workareaRelateAnswer = z.object({
  space: z.string(),
  workarea: z.string(),
  kind: z.enum(WORKAREA_RELATION_KINDS),
  target: z.string(),
  ...changedAnswer,
});

export const workareaRelateVerb = defineVerb({
  name: 'gv.workarea_relate',
  role: 'agent',
  summary: 'Declare that a work area you wrote into was opened by, continues or derives from another; no unlink.',
  params: z.strictObject({
    workarea: workareaParam,
    kind: z.enum(WORKAREA_RELATION_KINDS),
    target: workareaParam,
    space: spaceParam.optional(),
    note: noteParam.optional(),
    producer: producerParam.optional(),
  }),
  answer: workareaRelateAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    const space = requireSpace({ store }, p.space ?? 'main');
    access.capabilities.require(caller, space, 'contribute');
    if (p.workarea === p.target) throw invalidParams('a work area is not related to itself', { field: 'target' });
    const reads = store.workareas;
    const answer = { space, workarea: p.workarea, kind: p.kind, target: p.target };
    return store.writer.write(() => {
      if (reads.part(space, p.workarea, caller.identity) === undefined) {
        throw invalidParams(`you never wrote into work area ${p.workarea} in space ${space}`, { field: 'workarea' });
      }
      const wroteTarget = reads.part(space, p.target, caller.identity) !== undefined;
      // derived_from claims the work itself came from the target, so only the caller's own work qualifies.
      if (p.kind === 'derived_from' && !wroteTarget) {
        throw invalidParams(`derived_from names a work area you wrote into; you never wrote into ${p.target}`, { field: 'target' });
      }
      const readable = access.visibility.seesEverything(caller) || access.capabilities.has(caller, space, 'read');
      const promotedTarget = readable && reads.hasPromotedRow(space, p.target);
      if (!wroteTarget && !promotedTarget) {
        // One sentence for an area that does not exist and one holding only others' held rows.
        throw invalidParams(`work area ${p.target} is neither one you wrote into nor one with a promoted row`, { field: 'target' });
      }
      if (reads.hasRelation(space, p.workarea, p.kind, p.target, caller.identity)) return { ...answer, changed: false };
      if (reads.reaches(space, p.target, p.workarea)) {
        // Names only the two areas: the declared path between them may run through areas the caller cannot see.
        throw invalidParams(`relating ${p.workarea} to ${p.target} would close a cycle of declared relations`, {
          field: 'target',
          reason: 'cycle',
        });
      }
      const event = store.journal.append('workarea-related', caller.identity, {
        space,
        workarea: p.workarea,
        kind: p.kind,
        target: p.target,
        ...(p.note === undefined ? {} : { note: p.note }),
        ...(p.producer === undefined ? {} : { producer: p.producer }),
      });
      return { ...answer, changed: true, event_id: event.event_id };
    });
  },
});

const rowSummary = (row: ArtifactRow) => ({
  artifact_id: row.artifact_id,
  kind: row.kind,
  content_type: row.content_type,
  state: row.state,
  producer: producerOf(row),
  ts: row.ts,
  state_ts: row.state_ts,
});

const workareaRow = z.object({
  artifact_id: z.string(),
  kind: z.string().nullable().describe('null for recorded evidence'),
  content_type: z.string(),
  state: z.string(),
  producer: producerAnswer,
  ts: z.number().int().describe('when it was written'),
  state_ts: z.number().int().describe('when it entered its state'),
});

export const workareaAnswer = z.object({
  space: z.string(),
  workarea: z.string(),
  identity: z.string().describe('whose part this is: the caller (on the plugin tier with no gate, local)'),
  state: z.string().describe('your part: open or complete'),
  completed_ts: z.number().int().optional().describe('when your part was completed'),
  own: z.array(workareaRow),
  promoted: z.array(
    workareaRow.extend({
      writer_identity: z.string(),
      promoted_ts: z.number().int().nullable(),
      provisional: z.boolean().describe('promoted here, not yet countersigned by an org gate'),
    }),
  ),
  counts: z.record(z.string(), z.number().int()),
  truncated: z.boolean(),
});

export const workareaVerb = defineVerb({
  name: 'gv.workarea',
  role: 'reader',
  summary: 'Your rows in a work area you wrote into, its promoted rows, counts by state, and whether your part is complete; metadata only.',
  params: z.strictObject({ workarea: workareaParam, space: spaceParam.optional() }),
  answer: workareaAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    const space = requireSpace({ store }, p.space ?? 'main');
    const part = store.workareas.part(space, p.workarea, caller.identity);
    if (part === undefined) {
      throw invalidParams(`you never wrote into work area ${p.workarea} in space ${space}`, { field: 'workarea' });
    }
    const all = access.visibility.seesEverything(caller);
    const readable = all || access.capabilities.has(caller, space, 'read');
    const own = store.workareas.ownRows(space, p.workarea, caller.identity, WORKAREA_ROWS_LISTED + 1);
    const promoted = readable ? store.workareas.promotedRows(space, p.workarea, WORKAREA_ROWS_LISTED + 1) : [];
    const scope = all ? 'all' : readable ? 'own-and-promoted' : 'own';
    const counts = store.workareas.stateCounts(space, p.workarea, scope, caller.identity);
    return {
      space,
      workarea: p.workarea,
      identity: caller.identity,
      state: part.completed_seq === null ? 'open' : 'complete',
      ...(part.completed_ts === null ? {} : { completed_ts: part.completed_ts }),
      own: own.slice(0, WORKAREA_ROWS_LISTED).map(rowSummary),
      promoted: promoted.slice(0, WORKAREA_ROWS_LISTED).map((row) => ({
        ...rowSummary(row),
        writer_identity: row.writer_identity,
        promoted_ts: row.promoted_ts,
        provisional: row.provisional === 1,
      })),
      counts: Object.fromEntries(counts.map((c) => [c.state, c.n])),
      truncated: own.length > WORKAREA_ROWS_LISTED || promoted.length > WORKAREA_ROWS_LISTED,
    };
  },
});
