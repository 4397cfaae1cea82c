import type { Caller } from '../access/caller.js';
import { ROLE_TYPES, sheetMembers, type CrewSheet } from '../domain/crew-sheet.js';
import { atLeast } from '../domain/roles.js';
import { invalidParams } from '../gate-error.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import { requireSpace } from '../store/require-space.js';
import { slotsOf } from './crews.js';
import type { CrewsPart } from './crews-part.js';
import type { Store } from '../store/store.js';

/** What a runner that has not said hello yet is assumed to hold: the hello format's ceilings. */
const CAPACITY_CEILING = { crews: 16, members: 64 };

/** The runner's capacity as its newest hello reports it. */
export function capacityOf(house: { readonly crews: CrewsPart }, runner: string): { crews: number; members: number } {
  return house.crews.runners.hellos.newestOf(runner)?.report.capacity ?? CAPACITY_CEILING;
}

/**
 * Whether a runner can host `sheet` in `space` with `slotCount` members: a model for every
 * role type the sheet names (runner_lacks_type, with `missing`), and room for one more crew
 * and its members beside the crews it already hosts (runner_full).
 */
export function requireRunnerFits(house: { readonly crews: CrewsPart }, runner: string, space: string, sheet: CrewSheet, slotCount: number): void {
  const settings = house.crews.runners.settingsOf(runner)?.settings;
  const missing = ROLE_TYPES.filter((t) => sheet.roles.some((r) => r.type === t) && settings?.models[t] === undefined);
  if (missing.length > 0) {
    throw invalidParams(`runner ${runner} has no model for role type ${missing.join(', ')}`, { reason: 'runner_lacks_type', missing });
  }
  const others = house.crews.runners.assignmentsOf(runner).filter((a) => a.space !== space);
  const capacity = capacityOf(house, runner);
  const crews = others.length + 1;
  const members = others.reduce((n, a) => n + slotsOf(a).length, 0) + slotCount;
  if (crews > capacity.crews || members > capacity.members) {
    throw invalidParams(`runner ${runner} holds ${capacity.crews} crews and ${capacity.members} members; this would make ${crews} and ${members}`, {
      reason: 'runner_full',
      capacity,
      crews,
      members,
    });
  }
}

/** Spaces whose served sheet sends their questions to `crew`. */
function answeredBy(house: { readonly store: Store; readonly crews: CrewsPart }, crew: string): string[] {
  return house.store.spaceNames().filter((s) => s !== crew && house.crews.sheets.servedSheet(s)?.sheet.answering === crew);
}

/**
 * `gv.promote`'s crew-sheet checks (docs/protocol.md#gvpromote), run before a sheet is served: connections only
 * by an admin (they grant the crew's members read on other spaces); the answering crew a
 * crew, one step away (no chain); the assigned runner able to host it.
 */
export function requireSheetPromotable(house: { readonly store: Store; readonly crews: CrewsPart }, caller: Caller, row: ArtifactRow, sheet: CrewSheet): void {
  const connections = sheet.connections ?? [];
  for (const space of connections) requireSpace(house, space);
  if (connections.length > 0 && !atLeast(caller.role, 'admin')) {
    throw invalidParams('a crew sheet naming connections grants read on other spaces: an admin promotes it', { reason: 'connection_needs_admin', connections });
  }
  const answering = sheet.answering;
  if (answering !== undefined && answering !== row.space) {
    requireSpace(house, answering);
    const target = house.crews.sheets.servedSheet(answering);
    if (target === null) {
      throw invalidParams(`space ${answering} has no served crew sheet: it is not a crew and cannot answer`, { reason: 'answering_not_a_crew', answering });
    }
    const onward = target.sheet.answering;
    if (onward !== undefined && onward !== answering) {
      throw invalidParams(`crew ${answering} sends its own questions to ${onward}: answering is one step, never a chain`, { reason: 'answering_chain', answering });
    }
    const askers = answeredBy(house, row.space);
    if (askers.length > 0) {
      throw invalidParams(`crew ${row.space} answers for ${askers.join(', ')}: it cannot send its own questions on`, { reason: 'answering_chain', answering });
    }
  }
  const assigned = house.crews.runners.assignment(row.space);
  if (assigned !== undefined) requireRunnerFits(house, assigned.runner, row.space, sheet, sheetMembers(sheet));
}
