import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { spaceParam, workareaParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { invalidParams } from '../../gate-error.js';
import { eventFromRow, type JournalRow } from '../../forms/event.js';
import { eventVisible, GROUP_DECIDED_PREFIXES } from '../../events/event-visibility.js';
import { isServedType, NEVER_WRITTEN, SERVED_TYPES, SPACE_REGISTRY_TYPES, servedEvent, type ServedEvent, servedEventSchema } from '../../events/served-event.js';

export const EVENTS_FORMAT_VERSION = 1;
/**
 * How long one call may walk the journal for its page, in ms: a call is bounded in time, not
 * in rows, so a caller who may read little of a busy journal still gets a full page in one
 * call (SQLite drops what the caller can never be served before a row reaches JavaScript).
 */
const WALK_MS = 400;
/** Seqs one statement spans: each stays short however few rows it keeps. */
const WINDOW = 20_000;
const CHUNK = 1_000;

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
  handler({ caller, store, access }, p) {
    const limit = p.limit ?? 100;
    if (limit < 1 || limit > 1000) throw invalidParams('limit must be 1 to 1000', { field: 'limit' });
    if (p.direction !== undefined && p.direction !== 'forward' && p.direction !== 'backward') {
      throw invalidParams('direction must be forward or backward', { field: 'direction' });
    }
    const unserved = (p.types ?? []).find((t) => !isServedType(t));
    if (unserved !== undefined) throw invalidParams(`unserved event type: ${unserved}`, { field: 'types' });
    const unwritten = (p.types ?? []).find((t) => NEVER_WRITTEN.has(t));
    if (unwritten !== undefined) {
      throw invalidParams(`this build never writes ${unwritten} events (no act of it journals one), so a filter on it could only answer an empty page`, {
        field: 'types',
        reason: 'never_written',
        type: unwritten,
      });
    }
    if (p.space !== undefined) requireSpace({ store }, p.space);
    const opened = p.since === undefined ? null : store.cursors.open(p.since, caller.identity);
    if (p.since !== undefined && opened === null) throw invalidParams('since is not a usable cursor', { field: 'since' });
    const direction = p.direction ?? opened?.direction ?? 'forward';
    const tipSeq = store.journal.chainHead.seq;
    const position = opened?.seq ?? (direction === 'forward' ? 0 : tipSeq + 1);

    const forward = direction === 'forward';
    const reader = access.visibility.seesEverything(caller)
      ? undefined
      : {
          identity: caller.identity,
          spaces: store.spaceNames().filter((s) => access.capabilities.has(caller, s, 'read')),
          shownTypes: SPACE_REGISTRY_TYPES,
          shownPrefixes: GROUP_DECIDED_PREFIXES,
        };
    const page = store.journalReads.pages(forward, { types: p.types, space: p.space, workarea: p.workarea, served: SERVED_TYPES, reader });
    const deadline = performance.now() + WALK_MS;
    const walk = (from: number, take: (row: JournalRow) => boolean) =>
      walkVisible(from, forward, tipSeq, deadline, (after) => page(after, WINDOW, CHUNK), (row) => eventVisible({ store, access }, caller, row), take);
    const events: ServedEvent[] = [];
    const read = walk(position, (row) => {
      events.push(servedEvent(eventFromRow(row)));
      return events.length === limit;
    });
    // caught_up only when nothing more the caller may read lies ahead of the cursor.
    const caughtUp = read.exhausted || walk(read.position, () => true).exhausted;
    return {
      events,
      next: store.cursors.seal({ seq: read.position, direction }, caller.identity),
      tip: store.cursors.seal({ seq: tipSeq, direction: 'forward' }, caller.identity),
      caught_up: caughtUp,
      format_version: EVENTS_FORMAT_VERSION,
    };
  },
});

interface Walked {
  /** The seq of the last row examined. */
  position: number;
  /** The end of the journal was reached with nothing left to take. */
  exhausted: boolean;
}

/**
 * Walks journal rows from `from` (after it forward, before it backward) a window of seqs at
 * a time, handing each visible one to `take` until it asks to stop, the journal ends, or the
 * deadline passes: a call stays bounded in time.
 */
function walkVisible(
  from: number,
  forward: boolean,
  tipSeq: number,
  deadline: number,
  chunk: (after: number) => JournalRow[],
  visible: (row: JournalRow) => boolean,
  take: (row: JournalRow) => boolean,
): Walked {
  let position = from;
  const ended = () => (forward ? position >= tipSeq : position <= 1);
  while (!ended()) {
    const start = position;
    const rows = chunk(start);
    for (const row of rows) {
      position = row.seq;
      if (visible(row) && take(row)) return { position, exhausted: false };
    }
    // A short chunk read its whole window: the walk stands at the window's end.
    if (rows.length < CHUNK) position = forward ? Math.min(tipSeq, start + WINDOW) : Math.max(1, start - WINDOW);
    if (performance.now() > deadline) break;
  }
  return { position, exhausted: ended() };
}
