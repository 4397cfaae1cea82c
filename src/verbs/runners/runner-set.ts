import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { NULLABLE_SETTINGS, originOf, runnerSettingFields, settingsDefaults, settingsProblem, type RunnerSettings, type RunnerSettingsPatch } from '../../domain/runner-settings.js';
import { requireRunner, runnerParam } from './runner-operand.js';
import { runnerSettingsAnswer } from '../answer-types.js';

const optional = Object.fromEntries(Object.entries(runnerSettingFields).map(([k, s]) => [k, s.optional()])) as {
  [K in keyof typeof runnerSettingFields]: z.ZodOptional<(typeof runnerSettingFields)[K]>;
};

/** The origin a runner's token is for: undefined while no endpoint was chosen, null for the default provider. */
const endpointOrigin = (s: RunnerSettings) => (s.base_url === undefined ? undefined : originOf(s.base_url));

const runnerSetAnswer = z.object({
  runner: z.string(),
  settings_version: z.number(),
  settings: runnerSettingsAnswer,
  event_id: z.string(),
});

export const runnerSetVerb = defineVerb({
  name: 'gv.runner_set',
  role: 'admin',
  summary: "Change a runner's settings (the fields named; the rest kept); the runner receives them with its next hello.",
  params: z.strictObject({ runner: runnerParam, ...optional }),
  nullable: NULLABLE_SETTINGS,
  answer: runnerSetAnswer,
  uses: ['store', 'crews'],
  handler({ caller, store, crews }, p) {
    const { runner, ...sent } = p;
    const key = requireRunner({ crews }, runner);
    return store.writer.write(() => {
      const before = crews.runners.settingsOf(runner);
      const current = before?.settings ?? settingsDefaults(key.label ?? key.key_id);
      const settings: RunnerSettings = { ...current, ...(sent as RunnerSettingsPatch) };
      const problem = settingsProblem(settings, sent as RunnerSettingsPatch);
      if (problem !== null) throw invalidParams(problem.message, { ...(problem.reason === undefined ? {} : { reason: problem.reason }), field: problem.field });
      const version = (before?.version ?? 0) + 1;
      const event = store.journal.append('runner-settings-set', caller.identity, {
        runner,
        settings_version: version,
        settings,
        fields: Object.keys(sent).sort(),
      });
      // A token is bound to the origin it was set for: another origin must not receive it.
      const token = crews.runners.tokenRow(runner);
      if (token !== undefined && token.state !== 'none' && endpointOrigin(current) !== endpointOrigin(settings)) {
        store.journal.append('runner-token-cleared', caller.identity, { runner, version: token.version, reason: 'origin_changed' });
        crews.runners.vault.clear(runner);
      }
      return { runner, settings_version: version, settings, event_id: event.event_id };
    });
  },
});
