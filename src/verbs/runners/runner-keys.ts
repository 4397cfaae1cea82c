import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { spaceParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { invalidParams } from '../../gate-error.js';
import { mintApiKey } from '../../credentials/api-keys.js';
import { slotsOf } from '../../crews/crews.js';
import { changeGrant, revokeMemberKey } from '../../crews/member-grants.js';
import { callingRunner } from './runner-operand.js';
import type { House } from '../house.js';

const DAY_MS = 86_400_000;

/**
 * The one instance heard on the key within the window (the two-instances rule, docs/protocol.md#gvrunner_keys-and-gvrunner_token): keys
 * and tokens go to a runner only while exactly one program speaks for its key.
 */
export function soleInstance(house: Pick<House, 'crews' | 'clock'>, runner: string): string {
  const heard = house.crews.runners.hellos.instancesHeard(runner, house.clock.now());
  if (heard.length > 1) {
    throw invalidParams(`${heard.length} instances said hello on this runner key within 120 s: stop all but one`, { reason: 'two_instances', instances: heard.length });
  }
  if (heard.length === 0) throw invalidParams('no instance said hello on this runner key within 120 s: send gv.runner_hello first', { reason: 'not_heard' });
  return heard[0]!;
}

const runnerKeysAnswer = z.object({
  space: z.string(),
  members: z.array(z.object({ slot: z.string(), role: z.string(), key: z.string() })),
});

export const runnerKeysVerb = defineVerb({
  name: 'gv.runner_keys',
  role: 'runner',
  summary: "Issue once one agent key per slot of the runner's crew in a space; raw keys only in this answer.",
  params: z.strictObject({ space: spaceParam }),
  answer: runnerKeysAnswer,
  uses: ['store', 'crews', 'clock'],
  handler({ caller, store, crews, clock }, p) {
    const runner = callingRunner(caller.identity);
    const space = requireSpace({ store }, p.space);
    return store.writer.write(() => {
      const a = crews.runners.assignment(space);
      if (a === undefined || a.runner !== runner) throw invalidParams(`space ${space} is not assigned to this runner`, { reason: 'not_assigned', field: 'space' });
      const instance = soleInstance({ crews, clock }, runner);
      if (a.keys_state === 'held') {
        throw invalidParams('this batch was acknowledged by a hello: it is served; ask the admin to reissue', { reason: 'already_served' });
      }
      // A second call before the hello acknowledges: the first answer may never have arrived.
      for (const k of crews.runners.liveMembers(space, a.batch)) revokeMemberKey({ store }, caller.identity, k.key_id, 'superseded');
      const sheetRow = store.artifacts.byId(a.sheet);
      const connections = (sheetRow === undefined ? null : crews.sheets.sheetOf(sheetRow))?.connections ?? [];
      const batch = a.batch + 1;
      const expiresAt = clock.now() + a.key_days * DAY_MS;
      const members = slotsOf(a).map((slot) => {
        const minted = mintApiKey();
        store.journal.append('apikey-issued', caller.identity, {
          key_id: minted.keyId,
          key_hash: minted.hash,
          role: 'agent',
          label: slot,
          issued_by: caller.identity,
          expires_at: expiresAt,
          scope: null,
          member: { runner, space, slot, batch, instance },
        });
        const principal = `key:${minted.keyId}`;
        changeGrant({ store }, caller.identity, 'issue', principal, space, ['read', 'contribute']);
        for (const other of connections) changeGrant({ store }, caller.identity, 'issue', principal, other, ['read']);
        return { slot, role: slot.split('/')[1]!, key: minted.raw };
      });
      return { space, members };
    });
  },
});
