import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { callingRunner } from './runner-operand.js';
import { soleInstance } from './runner-keys.js';

const runnerTokenAnswer = z.object({ version: z.number().int(), token: z.string(), origin: z.string().nullable() });

export const runnerTokenVerb = defineVerb({
  name: 'gv.runner_token',
  role: 'runner',
  summary: 'Take the sealed token once; a hello must acknowledge it within 600 s or it is lost.',
  params: z.strictObject({}),
  answer: runnerTokenAnswer,
  uses: ['store', 'crews', 'clock'],
  handler({ caller, store, crews, clock }) {
    const runner = callingRunner(caller.identity);
    return store.writer.write(() => {
      const row = crews.runners.tokenRow(runner);
      if (row === undefined || row.state === 'none') throw invalidParams('no token is set for this runner', { reason: 'no_token' });
      const instance = soleInstance({ crews, clock }, runner);
      if (row.state === 'served') throw invalidParams(`token version ${row.version} was already served`, { reason: 'already_served', version: row.version });
      const sealed = crews.runners.vault.open(runner, row.version);
      if (sealed === 'unreadable' || sealed === null) {
        throw invalidParams('the sealed token does not open under this deployment key: set it again', { reason: 'unreadable', version: row.version });
      }
      store.journal.append('runner-token-served', caller.identity, { runner, version: row.version, instance });
      crews.runners.vault.forget(runner);
      return { version: row.version, token: sealed.token, origin: row.origin };
    });
  },
});
