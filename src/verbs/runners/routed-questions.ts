import { z } from 'zod';
import { markedWith } from '../../projections/finding-marks.js';
import { defineVerb } from '../define-verb.js';
import { scannerFindingsAnswer } from '../answer-types.js';
import { spaceParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { invalidParams } from '../../gate-error.js';
import { atLeast } from '../../domain/roles.js';
import type { Caller } from '../../access/caller.js';
import { derivesFromOf, producerOf, type ArtifactRow } from '../../projections/artifact-reads.js';
import { crewQueue } from '../../questions/crew-queue.js';
import { questionStanding } from '../../questions/question-state.js';
import { crewReadable } from '../../questions/crew-reads.js';
import { processUid } from '../../auth/peer-credentials.js';
import type { House } from '../house.js';

export const ROUTED_QUESTIONS_SHOWN = 50;
const CITATIONS_SHOWN = 4;

/** The role an asker's identity holds: its key's, its person entry's, or a socket peer's. */
function roleOf(house: Pick<House, 'store'>, identity: string): string {
  if (identity.startsWith('key:')) {
    return house.store.apiKeys.roleOf(identity.slice(4)) ?? 'agent';
  }
  if (identity.startsWith('uid:')) return identity === `uid:${processUid()}` ? 'admin' : 'agent';
  return house.store.people.roleOf(identity) ?? 'reader';
}

/** docs/protocol.md#gvrouted_questions: an unrevoked member key of a slot of the space, or a person at reviewer or above who reads it. */
function mayRead(house: Pick<House, 'access' | 'crews'>, caller: Caller, space: string): boolean {
  if (house.crews.runners.crewOf(caller.identity)?.space === space) return true;
  return caller.kind === 'person' && atLeast(caller.role, 'reviewer') && house.access.capabilities.has(caller, space, 'read');
}

function shown(house: Pick<House, 'store' | 'crews'>, row: ArtifactRow, now: number, sheet: { id: string; brief: string; instructions: string | null }) {
  const standing = questionStanding(house, row, now);
  const readable = new Map(crewReadable(house, row).map((r) => [r.artifact_id, r]));
  return {
    question: row.artifact_id,
    body: house.store.artifacts.servedBody(row),
    // A question or claim promoted over the scanner's findings says so beside its words.
    ...markedWith(house.store.artifacts.findingMarks(row)),
    space: row.space,
    asker: { producer: producerOf(row), role: roleOf(house, row.writer_identity) },
    promoted_at: row.promoted_ts,
    wait_minutes: standing.wait_minutes,
    minutes_left: standing.minutes_left,
    brief: sheet.brief,
    sheet: sheet.id,
    instructions: sheet.instructions,
    // A cited claim that is not served (held, demoted, erased) is null: its place is kept, its words are not.
    citations: derivesFromOf(row)
      .slice(0, CITATIONS_SHOWN)
      .map((id) => {
        const cited = readable.get(id);
        const body = cited === undefined ? null : house.store.artifacts.servedBody(cited);
        return cited === undefined || body === null ? null : { artifact_id: id, body, ...markedWith(house.store.artifacts.findingMarks(cited)) };
      }),
  };
}

const routedQuestionsAnswer = z.object({
  space: z.string(),
  questions: z.array(z.object({
    question: z.string(),
    body: z.string().nullable(),
    scanner_findings: scannerFindingsAnswer,
    space: z.string(),
    asker: z.object({
      producer: z.object({ name: z.string(), kind: z.string().nullable() }).nullable(),
      role: z.string(),
    }),
    promoted_at: z.number().int().nullable(),
    wait_minutes: z.number().int().nullable(),
    minutes_left: z.number().int().nullable(),
    brief: z.string(),
    sheet: z.string(),
    instructions: z.string().nullable(),
    citations: z.array(z.object({ artifact_id: z.string(), body: z.string(), scanner_findings: scannerFindingsAnswer }).nullable()),
  })),
  truncated: z.boolean(),
});

export const routedQuestionsVerb = defineVerb({
  name: 'gv.routed_questions',
  role: 'agent',
  summary: 'The questions routed to a crew and still with it (its answer or referral not yet given), oldest promotion first, with what the crew needs to answer.',
  params: z.strictObject({ space: spaceParam }),
  answer: routedQuestionsAnswer,
  uses: ['store', 'access', 'crews', 'clock'],
  handler({ caller, store, access, crews, clock }, p) {
    const space = requireSpace({ store }, p.space);
    if (!mayRead({ access, crews }, caller, space)) {
      throw invalidParams(`only the member keys of crew ${space}, or a person reviewing who reads it, read its routed questions`, { reason: 'not_the_answering_crew' });
    }
    const now = clock.now();
    const served = crews.sheets.servedSheet(space);
    const sheet = {
      id: served?.row.artifact_id ?? crews.runners.assignment(space)?.sheet ?? '',
      brief: served?.sheet.brief ?? '',
      instructions: served?.sheet.instructions ?? null,
    };
    const waiting = crewQueue({ store, crews }, space, now);
    return {
      space,
      questions: waiting.slice(0, ROUTED_QUESTIONS_SHOWN).map((row) => shown({ store, crews }, row, now, sheet)),
      truncated: waiting.length > ROUTED_QUESTIONS_SHOWN,
    };
  },
});
