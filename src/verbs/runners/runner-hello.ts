import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { runnerHelloBody, type RunnerHello } from '../../domain/runner-hello.js';
import { TOKEN_ACK_MS, slotsOf } from '../../crews/crews.js';
import { revokeMemberKey } from '../../crews/member-grants.js';
import { callingRunner } from './runner-operand.js';
import { crewAsked, crewQueue } from '../../questions/crew-queue.js';
import { questionStanding } from '../../questions/question-state.js';
import { ROUTED_QUESTIONS_SHOWN } from './routed-questions.js';
import type { House } from '../house.js';
import { z } from 'zod';
import { runnerSettingsAnswer } from '../answer-types.js';

/**
 * A hello settles what the runner's previous answers left open: a key batch it now holds
 * (acknowledged) or does not (refused: revoked, so it may ask anew), a space it no longer
 * serves after a reassignment (released), and a token it took and now holds.
 */
function settle(house: Pick<House, 'store' | 'crews'>, runner: string, by: string, hello: RunnerHello, now: number): void {
  for (const a of house.crews.runners.assignmentsOf(runner)) {
    if (a.keys_state !== 'issued') continue;
    const serving = hello.serving.find((s) => s.space === a.space);
    if (serving === undefined) continue;
    const live = house.crews.runners.liveMembers(a.space, a.batch);
    const missing = live.map((k) => k.slot).filter((slot) => hello.instance !== a.batch_instance || !serving.holds.includes(slot));
    if (missing.length === 0) {
      house.store.journal.append('runner-keys-acknowledged', by, { runner, space: a.space, batch: a.batch, instance: hello.instance });
      continue;
    }
    for (const k of live) revokeMemberKey(house, by, k.key_id, 'refused');
    house.store.journal.append('runner-keys-refused', by, { runner, space: a.space, batch: a.batch, instance: hello.instance, missing });
  }
  for (const space of house.crews.runners.pendingReleases(runner)) {
    if (!hello.serving.some((s) => s.space === space)) house.store.journal.append('runner-released', by, { runner, space });
  }
  const token = house.crews.runners.tokenRow(runner);
  if (
    token?.state === 'served' &&
    hello.token.held &&
    hello.token.version === token.version &&
    hello.instance === token.served_instance &&
    now - token.served_ts! <= TOKEN_ACK_MS
  ) {
    house.crews.runners.vault.acknowledge(runner, token.version, now);
  }
}

/**
 * Per crew of the runner: the questions its members asked with their routing state, and
 * the ids of those routed to it still to answer (gv.routed_questions serves their words to
 * a member key). Absent while the runner hosts no crew.
 */
function questionsOf(house: Pick<House, 'store' | 'crews'>, runner: string, now: number) {
  const crews = house.crews.runners.assignmentsOf(runner);
  if (crews.length === 0) return {};
  return {
    questions: crews.map((a) => {
      const asked = crewAsked(house, a.space);
      const routed = crewQueue(house, a.space, now);
      return {
        space: a.space,
        asked: asked.rows.map(({ row, slot }) => {
          const standing = questionStanding(house, row, now);
          return { question: row.artifact_id, slot, state: standing.state, reason: standing.reason };
        }),
        routed: routed.slice(0, ROUTED_QUESTIONS_SHOWN).map((r) => r.artifact_id),
        truncated: asked.truncated || routed.length > ROUTED_QUESTIONS_SHOWN,
      };
    }),
  };
}

const runnerHelloAnswer = z.union([
  z.object({
    label: z.string(),
    token: z.enum(['none', 'unreadable', 'held', 'served', 'waiting', 'lost']),
    assignments: z.array(z.object({
      space: z.string(),
      slots: z.array(z.string()),
      sheet: z.string(),
      keys: z.enum(['held', 'waiting', 'issued']),
    })),
    settings: runnerSettingsAnswer.optional(),
    now: z.number(),
    settings_version: z.number(),
  }),
  z.object({
    questions: z.array(z.object({
      space: z.string(),
      asked: z.array(z.object({
        question: z.string(),
        slot: z.string(),
        state: z.enum(['held', 'with_crew', 'with_people', 'answered', 'ended']),
        reason: z.string().nullable(),
      })),
      routed: z.array(z.string()),
      truncated: z.boolean(),
    })),
    label: z.string(),
    token: z.enum(['none', 'unreadable', 'held', 'served', 'waiting', 'lost']),
    assignments: z.array(z.object({
      space: z.string(),
      slots: z.array(z.string()),
      sheet: z.string(),
      keys: z.enum(['held', 'waiting', 'issued']),
    })),
    settings: runnerSettingsAnswer.optional(),
    now: z.number(),
    settings_version: z.number(),
  }),
]);

export const runnerHelloVerb = defineVerb({
  name: 'gv.runner_hello',
  role: 'runner',
  summary: 'A runner reports itself (gate.runner-hello/1) and learns its settings, token state, crews and their questions.',
  params: runnerHelloBody,
  answer: runnerHelloAnswer,
  uses: ['store', 'crews', 'clock'],
  handler({ caller, store, crews, clock }, hello) {
    const runner = callingRunner(caller.identity);
    const now = clock.now();
    // Heard even when refused below: two instances on one key must be seen to be refused.
    crews.runners.hellos.hear(runner, hello.instance, now);
    const wait = crews.runners.hellos.waitBeforeNext(runner, now, crews.runners.timings.helloIntervalMs);
    if (wait > 0) {
      throw invalidParams(`at most one hello per ${crews.runners.timings.helloIntervalMs / 1000} s on a runner key`, { reason: 'too_soon', retry_after_ms: wait });
    }
    return store.writer.write(() => {
      if (crews.runners.firstSeen(runner) === null) {
        store.journal.append('runner-first-seen', caller.identity, { runner, instance: hello.instance, runner_version: hello.runner, host: hello.host });
      }
      settle({ store, crews }, runner, caller.identity, hello, now);
      crews.runners.hellos.keep(runner, hello, now);
      const configured = crews.runners.settingsOf(runner);
      const version = configured?.version ?? 0;
      return {
        now,
        settings_version: version,
        ...(configured !== null && configured.version !== hello.settings_version ? { settings: configured.settings } : {}),
        label: configured?.settings.label ?? crews.runners.keyRow(runner)?.label ?? runner,
        token: crews.runners.tokenState(runner),
        assignments: crews.runners.assignmentsOf(runner).map((a) => ({ space: a.space, slots: slotsOf(a), sheet: a.sheet, keys: a.keys_state })),
        ...questionsOf({ store, crews }, runner, now),
      };
    });
  },
});
