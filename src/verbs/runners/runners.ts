import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { slotsOf } from '../../crews/crews.js';
import { runnerParam } from './runner-operand.js';
import { crewQueue } from '../../questions/crew-queue.js';
import type { House } from '../house.js';

/** What the newest hello said, without paths or host facts a reviewer has no use for. */
function helloSummary(house: Pick<House, 'crews'>, runner: string) {
  const kept = house.crews.runners.hellos.newestOf(runner);
  if (kept === undefined) return null;
  const h = kept.report;
  return {
    at: kept.at,
    instance: h.instance,
    runner_version: h.runner,
    harness: h.harness,
    host: h.host,
    backend: h.backend,
    models: h.models,
    models_floor: h.models_floor,
    capacity: h.capacity,
    budget: h.budget,
    serving: h.serving.map((s) => ({ space: s.space, running: s.running, holds: s.holds.length })),
    settings_version: h.settings_version,
    refused: h.refused,
    harness_found: h.facts.claude.found,
    workdir_writable: h.facts.workdir.writable,
  };
}

/** One runner as gv.runners shows it (the README documents each field). */
export function runnerView(house: Pick<House, 'store' | 'crews' | 'clock'>, runner: string) {
  const now = house.clock.now();
  const inFlight = new Map(house.crews.runners.assignmentsOf(runner).map((a) => [a.space, crewQueue(house, a.space, now).length]));
  const key = house.crews.runners.keyRow(runner);
  const configured = house.crews.runners.settingsOf(runner);
  const token = house.crews.runners.tokenRow(runner);
  return {
    runner,
    label: configured?.settings.label ?? key?.label ?? runner,
    active: house.crews.runners.activeRunner(runner) !== undefined,
    settings_version: configured?.version ?? 0,
    paused: configured?.settings.paused ?? false,
    first_seen: house.crews.runners.firstSeen(runner),
    heard: house.crews.runners.heard(runner),
    instances: house.crews.runners.hellos.instancesHeard(runner, house.clock.now()).length,
    last_hello: helloSummary(house, runner),
    token: house.crews.runners.tokenState(runner),
    token_version: token?.version ?? 0,
    assignments: house.crews.runners.assignmentsOf(runner).map((a) => ({
      space: a.space,
      slots: slotsOf(a),
      sheet: a.sheet,
      key_days: a.key_days,
      assigned_at: a.assigned_ts,
      keys: a.keys_state,
      batch: a.batch,
      keys_expire_at: house.crews.runners.batchExpiry(a.space, a.batch),
      questions_in_flight: inFlight.get(a.space) ?? 0,
    })),
    questions_in_flight: [...inFlight.values()].reduce((n, q) => n + q, 0),
    releasing: house.crews.runners.pendingReleases(runner),
  };
}

const runnersAnswer = z.object({
  runners: z.array(z.object({
    runner: z.string(),
    label: z.string(),
    active: z.boolean(),
    settings_version: z.number(),
    paused: z.boolean(),
    first_seen: z.number().nullable(),
    heard: z.boolean(),
    instances: z.number(),
    last_hello: z.object({
      at: z.number(),
      instance: z.string(),
      runner_version: z.string(),
      harness: z.string(),
      host: z.string(),
      backend: z.string(),
      models: z.object({
        review: z.object({ model: z.string(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
        reasoning: z.object({ model: z.string(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
        research: z.object({ model: z.string(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
        coding: z.object({ model: z.string(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
        fast: z.object({ model: z.string(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
      }),
      models_floor: z.boolean(),
      capacity: z.object({ crews: z.number(), members: z.number() }),
      budget: z.object({ day: z.string(), spent: z.number(), of: z.number() }),
      serving: z.array(z.object({ space: z.string(), running: z.number(), holds: z.number() })),
      settings_version: z.number(),
      refused: z.array(z.object({
        field: z.string(),
        code: z.enum([
          'not_found',
          'no_mcp_json',
          'not_the_plugin',
          'missing',
          'not_writable',
          'inside_home',
          'inside_workdir',
          'not_a_git_checkout',
        ]),
      })),
      harness_found: z.boolean(),
      workdir_writable: z.boolean(),
    }).nullable(),
    token: z.enum(['none', 'unreadable', 'held', 'served', 'waiting', 'lost']),
    token_version: z.number(),
    assignments: z.array(z.object({
      space: z.string(),
      slots: z.array(z.string()),
      sheet: z.string(),
      key_days: z.number(),
      assigned_at: z.number().int(),
      keys: z.enum(['held', 'waiting', 'issued']),
      batch: z.number(),
      keys_expire_at: z.number().int().nullable(),
      questions_in_flight: z.number(),
    })),
    questions_in_flight: z.number(),
    releasing: z.array(z.string()),
  })),
});

export const runnersVerb = defineVerb({
  name: 'gv.runners',
  role: 'reviewer',
  summary: 'Every runner key: its label, settings version, newest hello, token state, crews with their key states.',
  params: z.strictObject({ runner: runnerParam.optional() }),
  answer: runnersAnswer,
  uses: ['store', 'crews', 'clock'],
  handler({ store, crews, clock }, p) {
    const ids = crews.runners.runnerIds().filter((id) => p.runner === undefined || id === p.runner);
    return { runners: ids.map((id) => runnerView({ store, crews, clock }, id)) };
  },
});
