import { z } from 'zod';
import { isNameSegment, isSpaceName } from './names.js';

/**
 * The role types a runner's models are keyed by (docs/protocol.md#gvrunner_hello: `gate.runner-hello/1` models and
 * `gv.runner_set` models); a crew sheet gives each of its roles one of them.
 */
export const ROLE_TYPES = ['reasoning', 'research', 'coding', 'review', 'fast'] as const;
export type RoleType = (typeof ROLE_TYPES)[number];

export const CREW_SHEET_FORMAT = 'crew_sheet/1';
/** A crew sheet travels as a prompt_template row: instructions for agents, graded as such (T-2). */
export const CREW_SHEET_KIND = 'prompt_template';

const space = z.string().refine(isSpaceName, 'a space name is 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit');

const role = z.strictObject({
  role: z.string().refine(isNameSegment, 'a role name is one work-area segment'),
  type: z.enum(ROLE_TYPES),
  members: z.number().int().min(1).max(16),
  instructions: z.string().min(1).max(4000).optional(),
});

/**
 * `crew_sheet/1`: what makes a space a crew (docs/protocol.md#spaces-work-areas-and-other-resources). Its fields are
 * this build's (the protocol names the sheet, not its shape); the README's "Crews, runners and
 * `gate runner`" section documents each.
 */
export const crewSheetBody = z
  .strictObject({
    format: z.literal(CREW_SHEET_FORMAT),
    /** What the crew answers, given to members with each routed question. */
    brief: z.string().min(1).max(2000),
    instructions: z.string().min(1).max(16000).optional(),
    roles: z.array(role).min(1).max(16),
    /** The crew that answers questions asked in this space; absent means this crew answers them. */
    answering: space.optional(),
    /** Other spaces the crew's members read. */
    connections: z.array(space).max(8).optional(),
    /** Minutes a routed question waits with the crew before it goes to people. */
    wait_minutes: z.number().int().min(1).max(10080).optional(),
  })
  .refine((s) => new Set(s.roles.map((r) => r.role)).size === s.roles.length, { message: 'a role is named twice', path: ['roles'] })
  .refine((s) => new Set(s.connections ?? []).size === (s.connections ?? []).length, { message: 'a connection is named twice', path: ['connections'] });

export type CrewSheet = z.infer<typeof crewSheetBody>;

/** Members over every role: the slots a full assignment of the sheet holds. */
export const sheetMembers = (sheet: CrewSheet) => sheet.roles.reduce((n, r) => n + r.members, 0);

/** Every slot label of the sheet in `space`: `<space>/<role>/<n>`, n from 1. */
export function sheetSlots(space: string, sheet: CrewSheet): string[] {
  return sheet.roles.flatMap((r) => Array.from({ length: r.members }, (_, i) => `${space}/${r.role}/${i + 1}`));
}

/** The JSON object a body holds, or undefined for anything else. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a prompt_template body claims the crew-sheet form (and so must satisfy it). */
export function claimsCrewSheet(kind: string | null, text: string | null): boolean {
  return kind === CREW_SHEET_KIND && text !== null && jsonObject(text)?.['format'] === CREW_SHEET_FORMAT;
}

/** The sheet a row's body holds, or null when the row is no crew sheet. */
export function crewSheetOf(kind: string | null, text: string | null): CrewSheet | null {
  if (!claimsCrewSheet(kind, text)) return null;
  const parsed = crewSheetBody.safeParse(jsonObject(text!));
  return parsed.success ? parsed.data : null;
}

/** Why a body that claims the crew-sheet form breaks it, or null (also for bodies that claim no such form). */
export function crewSheetProblem(kind: string | null, text: string | null): string | null {
  if (!claimsCrewSheet(kind, text)) return null;
  const parsed = crewSheetBody.safeParse(jsonObject(text!));
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}
