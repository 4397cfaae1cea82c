import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { originOf } from '../../domain/runner-settings.js';
import { requireRunner, runnerParam } from './runner-operand.js';

/** 1-4,096 printable characters, no white space (docs/protocol.md#gvrunner_token_set); the value itself never reaches a log or the journal. */
const tokenParam = z.string().min(1).max(4096).regex(/^[^\p{C}\p{Z}\s]+$/u, 'printable characters without white space');

const runnerTokenSetAnswer = z.union([
  z.object({ runner: z.string(), token: z.string() }),
  z.object({ runner: z.string(), version: z.number().int(), token: z.string(), event_id: z.string() }),
]);

export const runnerTokenSetVerb = defineVerb({
  name: 'gv.runner_token_set',
  role: 'admin',
  summary: "Seal a token for a runner's model endpoint until the runner takes it once with gv.runner_token; null clears it.",
  params: z.strictObject({ runner: runnerParam, token: tokenParam.nullable() }),
  nullable: ['token'],
  answer: runnerTokenSetAnswer,
  uses: ['store', 'crews'],
  handler({ caller, store, crews }, p) {
    requireRunner({ crews }, p.runner);
    return store.writer.write(() => {
      const before = crews.runners.tokenRow(p.runner);
      if (p.token === null) {
        if (before === undefined || before.state === 'none') return { runner: p.runner, token: 'none' };
        const event = store.journal.append('runner-token-cleared', caller.identity, { runner: p.runner, version: before.version, reason: 'cleared' });
        crews.runners.vault.clear(p.runner);
        return { runner: p.runner, version: before.version, token: 'none', event_id: event.event_id };
      }
      const settings = crews.runners.settingsOf(p.runner)?.settings;
      if (settings?.base_url === undefined) {
        throw invalidParams('the runner has no model endpoint yet: set base_url (null for the default provider) with gv.runner_set first', {
          reason: 'no_endpoint',
          field: 'runner',
        });
      }
      const version = (before?.version ?? 0) + 1;
      crews.runners.vault.seal(p.runner, version, p.token);
      const event = store.journal.append('runner-token-set', caller.identity, { runner: p.runner, version, origin: originOf(settings.base_url) });
      return { runner: p.runner, version, token: 'waiting', event_id: event.event_id };
    });
  },
});
