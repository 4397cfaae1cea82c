import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { spaceParam, workareaParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { invalidParams } from '../../gate-error.js';
import { eventFromRow, type JournalRow } from '../../forms/event.js';
import { eventVisible } from '../../events/event-visibility.js';
import type { LongRead } from '../../long-reads/long-reads.js';
import { GROUP_DECIDED_TYPES, isServedType, NEVER_WRITTEN, SERVED_TYPES, SPACE_REGISTRY_TYPES, servedEvent, type ServedEvent, servedEventSchema, whyNeverWritten } from '../../events/served-event.js';

export const EVENTS_FORMAT_VERSION = 1;
/**
 * Main-thread ms one call may walk the journal for its page, its chunks summed: a call is
 * bounded in work, not in rows, so a caller who may read little of a busy journal still
 * gets a full page in one call (SQLite drops what the caller can never be served before a
 * row reaches JavaScript). The walk runs as a long read (src/long-reads/): a chunk at a
 * time, each on its turn, so the gate answers everyone else between two chunks.
 */
const WALK_MS = 400;
/** Seqs one statement spans: one chunk of the walk, short however few rows it keeps. */
const WINDOW = 500;
/** Rows one statement reads at most (each checked and shaped in the same chunk). */
const CHUNK = 100;

const eventsAnswer = z.object({
  events: z.array(servedEventSchema),
  next: z.string().describe('the cursor to ask from next'),
  tip: z.string().describe("the journal's newest cursor"),
  caught_up: z.boolean(),
  format_version: z.number().int(),
});

export const eventsVerb = defineVerb({
  name: 'gv.events',
  role: 'reader',
  summary: 'Read served events in append order from a sealed cursor.',
  params: z.strictObject({
    since: z.string().min(1).max(512).optional(),
    types: z.array(z.string()).min(1).max(64).optional(),
    space: spaceParam.optional(),
    workarea: workareaParam.optional(),
    limit: z.number().int().optional(),
    direction: z.string().optional(),
  }),
  answer: eventsAnswer,
  uses: ['store', 'access', 'reads'],
  handler({ caller, store, access, reads }, p) {
    const limit = p.limit ?? 100;
    if (limit < 1 || limit > 1000) throw invalidParams('limit must be 1 to 1000', { field: 'limit' });
    if (p.direction !== undefined && p.direction !== 'forward' && p.direction !== 'backward') {
      throw invalidParams('direction must be forward or backward', { field: 'direction' });
    }
    const unserved = (p.types ?? []).find((t) => !isServedType(t));
    if (unserved !== undefined) throw invalidParams(`unserved event type: ${unserved}`, { field: 'types' });
    const unwritten = (p.types ?? []).find((t) => NEVER_WRITTEN.has(t));
    if (unwritten !== undefined) {
      throw invalidParams(`this build never writes ${unwritten} events (${whyNeverWritten(unwritten)}), so a filter on it could only answer an empty page`, {
        field: 'types',
        reason: 'never_written',
        type: unwritten,
      });
    }
    if (p.space !== undefined) requireSpace({ store }, p.space);
    const opened = p.since === undefined ? null : store.cursors.open(p.since, caller.identity);
    if (p.since !== undefined && opened === null) throw invalidParams('since is not a usable cursor', { field: 'since' });
    const direction = p.direction ?? opened?.direction ?? 'forward';
    const forward = direction === 'forward';
    const reader = access.visibility.seesEverything(caller)
      ? undefined
      : {
          identity: caller.identity,
          spaces: store.spaceNames().filter((s) => access.capabilities.has(caller, s, 'read')),
          shownTypes: [...SPACE_REGISTRY_TYPES, ...GROUP_DECIDED_TYPES],
        };
    return reads.run(caller, async (read) => {
      // The journal as the snapshot holds it: nothing past its head, each row's visibility read in that same state.
      const tipSeq = read.headSeq;
      const position = opened?.seq ?? (forward ? 0 : tipSeq + 1);
      const page = read.store.journalReads.pages(forward, { types: p.types, space: p.space, workarea: p.workarea, served: SERVED_TYPES, reader });
      const walk = (from: number, take: (row: JournalRow) => boolean) =>
        walkVisible(read, from, forward, tipSeq, (after) => page(after, WINDOW, CHUNK), (row) => eventVisible({ store: read.store, access }, caller, row), take);
      const events: ServedEvent[] = [];
      const walked = await walk(position, (row) => {
        events.push(servedEvent(eventFromRow(row)));
        return events.length === limit;
      });
      // caught_up only when nothing more the caller may read lies ahead of the cursor.
      const caughtUp = walked.exhausted || (!walked.stopped && (await walk(walked.position, () => true)).exhausted);
      return {
        events,
        next: store.cursors.seal({ seq: walked.position, direction }, caller.identity),
        tip: store.cursors.seal({ seq: tipSeq, direction: 'forward' }, caller.identity),
        caught_up: caughtUp,
        format_version: EVENTS_FORMAT_VERSION,
      };
    });
  },
});

interface Walked {
  /** The seq of the last row examined. */
  position: number;
  /** The end of the journal was reached with nothing left to take. */
  exhausted: boolean;
  /** The walk stopped short: its main-thread time or the caller's budget ran out. */
  stopped: boolean;
}

/**
 * Walks journal rows from `from` (after it forward, before it backward) a window of seqs at
 * a time, one statement a chunk, handing each visible one to `take` until it asks to stop,
 * the journal ends, the call has walked for WALK_MS of main-thread time or the caller's
 * budget is spent: a call stays bounded in work, and yields its turn between chunks.
 */
async function walkVisible(
  read: LongRead,
  from: number,
  forward: boolean,
  tipSeq: number,
  chunk: (after: number) => JournalRow[],
  visible: (row: JournalRow) => boolean,
  take: (row: JournalRow) => boolean,
): Promise<Walked> {
  let position = from;
  const ended = () => (forward ? position >= tipSeq : position <= 1);
  while (!ended()) {
    const start = position;
    const rows = chunk(start);
    for (const row of rows) {
      position = row.seq;
      if (visible(row) && take(row)) return { position, exhausted: false, stopped: false };
    }
    // A short chunk read its whole window: the walk stands at the window's end.
    if (rows.length < CHUNK) position = forward ? Math.min(tipSeq, start + WINDOW) : Math.max(1, start - WINDOW);
    if (ended()) break;
    if (read.tookMs() > WALK_MS || read.spent()) return { position, exhausted: false, stopped: true };
    await read.next();
  }
  return { position, exhausted: ended(), stopped: false };
}
