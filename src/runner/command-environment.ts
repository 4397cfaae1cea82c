import type { RunnerSettings } from '../domain/runner-settings.js';
import type { RoleType } from '../domain/crew-sheet.js';

/** One question as gv.routed_questions serves it (docs/protocol.md#gvrouted_questions). */
export interface RoutedQuestion {
  question: string;
  body: string | null;
  space: string;
  asker: { producer: unknown; role: string };
  promoted_at: number | null;
  wait_minutes: number | null;
  minutes_left: number | null;
  brief: string;
  sheet: string;
  instructions: string | null;
  citations: Array<{ artifact_id: string; body: string } | null>;
}

/** Variables of the runner's own environment a crew's command never inherits. */
const WITHHELD = /^GATE_/;

/**
 * The environment a crew's command runs with: the runner's own (PATH, HOME, locale),
 * less the runner key and every other GATE_ variable, plus the member's key, the question
 * and what the crew's settings say. The README lists each variable.
 */
export function commandEnvironment(input: {
  url: string;
  keyEnv: string;
  question: RoutedQuestion;
  space: string;
  member: { slot: string; role: string; key: string };
  settings: RunnerSettings;
  token: { value: string; origin: string | null } | null;
  workdir: string;
  /** The member's role type by the crew's sheet, when the sheet could be read. */
  roleType: RoleType | null;
}): Record<string, string> {
  const { question: q, settings: s, member } = input;
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !WITHHELD.test(e[0]) && e[0] !== input.keyEnv),
  );
  const model = input.roleType === null ? undefined : s.models[input.roleType];
  return {
    ...inherited,
    GATE_URL: input.url,
    GATE_KEY: member.key,
    GATE_SPACE: input.space,
    GATE_SLOT: member.slot,
    GATE_ROLE: member.role,
    GATE_ROLE_TYPE: input.roleType ?? '',
    GATE_MODEL: model?.model ?? '',
    GATE_MODEL_EFFORT: model?.effort ?? '',
    GATE_QUESTION: q.question,
    GATE_QUESTION_BODY: q.body ?? '',
    GATE_QUESTION_SPACE: q.space,
    GATE_BRIEF: q.brief,
    GATE_INSTRUCTIONS: q.instructions ?? '',
    GATE_CITATIONS: JSON.stringify(q.citations),
    GATE_MINUTES_LEFT: q.minutes_left === null ? '' : String(q.minutes_left),
    GATE_WORKDIR: input.workdir,
    GATE_PLUGIN_DIR: s.plugin_dir ?? '',
    GATE_DENY_READ: JSON.stringify(s.deny_read),
    GATE_MANAGED_SETTINGS: JSON.stringify(s.managed_settings ?? []),
    GATE_PROVIDER_URL: s.base_url ?? '',
    GATE_PROVIDER_TOKEN: input.token?.value ?? '',
  };
}
