import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam, spaceParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { proofParam, provenBy, requireOperatorProof } from '../operator-proof.js';
import { invalidParams } from '../../gate-error.js';
import { sheetSlots } from '../../domain/crew-sheet.js';
import { configured } from '../../domain/runner-settings.js';
import { slotsOf } from '../../crews/crews.js';
import { requireRunnerFits } from '../../crews/sheet-checks.js';
import { changeGrant, revokeMemberKey } from '../../crews/member-grants.js';
import type { SheetRow } from '../../crews/crew-sheets.js';
import type { VerbContext } from '../define-verb.js';
import { requireRunner, runnerParam } from './runner-operand.js';

export const DEFAULT_KEY_DAYS = 30;

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The sheet an assignment names: the one given (an ACTIVE crew sheet of the space) or the space's served sheet. */
function assignedSheet({ caller, access, crews }: Pick<VerbContext, 'caller' | 'access' | 'crews'>, space: string, id: string | undefined): SheetRow {
  if (id === undefined) {
    const served = crews.sheets.servedSheet(space);
    if (served === null) throw invalidParams(`space ${space} has no served crew sheet: promote one (a crew_sheet/1 prompt_template) first`, { field: 'sheet' });
    return served;
  }
  const row = access.readableArtifact(caller, id);
  const sheet = crews.sheets.sheetOf(row);
  if (sheet === null || row.state !== 'ACTIVE' || row.space !== space) {
    throw invalidParams(`sheet ${id.slice(0, 16)} is not a served crew sheet of space ${space}`, { field: 'sheet' });
  }
  return { row, sheet };
}

const runnerAssignAnswer = z.union([
  z.object({
    space: z.string(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    changed: z.boolean(),
    revoked: z.array(z.never()),
  }),
  z.object({
    space: z.string(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    changed: z.boolean(),
    revoked: z.array(z.string()),
    event_id: z.string(),
  }),
]);

export const runnerAssignVerb = defineVerb({
  name: 'gv.runner_assign',
  role: 'admin',
  summary: "Give a runner a crew: the space, its slots, its sheet and its member keys' lifetime; null releases the space.",
  params: z.strictObject({
    space: spaceParam,
    runner: runnerParam.nullable(),
    slots: z.array(z.string().max(200)).min(1).max(64).optional(),
    sheet: artifactIdParam.optional(),
    key_days: z.number().int().min(1).max(90).optional(),
    reissue: z.boolean().optional(),
    proof: proofParam.optional(),
  }),
  nullable: ['runner'],
  answer: runnerAssignAnswer,
  uses: ['store', 'access', 'auth', 'crews'],
  handler(ctx, p) {
    const { caller, store, crews } = ctx;
    const space = requireSpace({ store }, p.space);
    const to = p.runner;
    let plan: { sheet: SheetRow; slots: string[] } | null = null;
    if (to !== null) {
      requireRunner({ crews }, to);
      if (!configured(crews.runners.settingsOf(to)?.settings ?? null)) {
        throw invalidParams(`runner ${to} has no command or no model yet: configure it with gv.runner_set first`, { reason: 'runner_unconfigured', field: 'runner' });
      }
      const sheet = assignedSheet(ctx, space, p.sheet);
      const every = sheetSlots(space, sheet.sheet);
      const slots = p.slots ?? every;
      const unknown = slots.find((s) => !every.includes(s));
      if (unknown !== undefined) throw invalidParams(`slot ${unknown} is not one of the sheet's: ${every.join(', ')}`, { field: 'slots' });
      if (new Set(slots).size !== slots.length) throw invalidParams('a slot is named twice', { field: 'slots' });
      // In the sheet's order, so a repeat in another order is no change.
      plan = { sheet, slots: every.filter((s) => slots.includes(s)) };
    }
    const operatorKey = requireOperatorProof(ctx, p.proof, 'gv.runner_assign');
    return store.writer.write(() => {
      const current = crews.runners.assignment(space);
      const from = current?.runner ?? null;
      if (to !== null) requireRunnerFits({ crews }, to, space, plan!.sheet.sheet, plan!.slots.length);
      const keyDays = to === null ? null : (p.key_days ?? current?.key_days ?? DEFAULT_KEY_DAYS);
      const restartsKeys = current !== undefined && (from !== to || p.reissue === true || !sameList(slotsOf(current), plan?.slots ?? []));
      const changed =
        restartsKeys || (to !== null && (current === undefined || current.sheet !== plan!.sheet.row.artifact_id || current.key_days !== keyDays));
      if (!changed) return { space, from, to, changed: false, revoked: [] };
      // The old batch ends here: its keys stop working with the reassignment.
      const revoked = restartsKeys ? crews.runners.liveMembersOfSpace(space).map((k) => k.key_id) : [];
      for (const keyId of revoked) revokeMemberKey({ store }, caller.identity, keyId, 'reassigned');
      if (from !== null && from !== to) changeGrant({ store }, caller.identity, 'revoke', `key:${from}`, space, ['read', 'contribute']);
      if (to !== null) changeGrant({ store }, caller.identity, 'issue', `key:${to}`, space, ['read', 'contribute']);
      const event = store.journal.append('runner-assigned', caller.identity, {
        space,
        from,
        runner: to,
        slots: plan?.slots ?? [],
        sheet: plan?.sheet.row.artifact_id ?? null,
        key_days: keyDays,
        reissue: p.reissue === true,
        restarts_keys: restartsKeys,
        revoked,
        ...provenBy(operatorKey),
      });
      return { space, from, to, changed: true, revoked, event_id: event.event_id };
    });
  },
});
