import type { UnwrittenDeclaration } from './declare.js';

/**
 * Types the served event vocabulary names that no act of this build journals: no verb links
 * spaces, shows steering as an event, confirms a sign or titles a row. They are not in the
 * catalogue, so appending one does not compile; a gv.events filter naming one is refused by
 * name (src/verbs/reading/events.ts).
 */
export const UNWRITTEN_EVENTS = {
  'steering-shown': { object: 'row', why: 'recall shows steering and journals nothing for it: a read stays a read, or the journal would grow with every recall and tell reviewers who read what' },
  'confirm-sign': { object: 'row', why: 'a sign is confirmed by its own event (manual-sign, disposition); no second act confirms it' },
  'review-confirmed': { object: 'row', why: 'a review ends in the quorum\'s move (promote, ratify); no event confirms it apart' },
  title: { object: 'row', why: 'no verb titles a row: a row\'s title is in its own words' },
  'space-linked': { object: 'space', why: 'no verb links spaces' },
  'space-unlinked': { object: 'space', why: 'no verb links spaces, so none unlinks them' },
} as const satisfies Record<string, UnwrittenDeclaration>;

export type UnwrittenType = keyof typeof UNWRITTEN_EVENTS;
