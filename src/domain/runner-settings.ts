import { posix } from 'node:path';
import { z } from 'zod';
import { ROLE_TYPES } from './crew-sheet.js';
import { modelChoice } from './runner-hello.js';

const printable = (min: number, max: number) => z.string().min(min).max(max).regex(/^[^\p{C}]*$/u, 'printable characters only');
const absolutePath = printable(1, 4096).refine((p) => p.startsWith('/'), 'an absolute path');

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why a model endpoint is refused, or null: https anywhere, plain http to loopback only, never a credential in it. */
export function endpointProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not a URL';
  }
  if (url.username !== '' || url.password !== '') return 'a base_url carries no credential: the token is set with gv.runner_token_set';
  if (url.search !== '' || url.hash !== '') return 'a base_url has no query or fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'https, or http to a loopback host';
}

/** The origin a token is bound to: the endpoint's, or null for the default provider. */
export const originOf = (baseUrl: string | null): string | null => (baseUrl === null ? null : new URL(baseUrl).origin);

const baseUrl = z.string().max(2048).superRefine((v, ctx) => {
  const problem = endpointProblem(v);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

const models = z.strictObject({
  ...(Object.fromEntries(ROLE_TYPES.map((t) => [t, modelChoice.optional()])) as Record<(typeof ROLE_TYPES)[number], z.ZodOptional<typeof modelChoice>>),
  retention_days_accepted: z.number().int().min(0).max(3650).optional(),
});

/**
 * Every setting `gv.runner_set` takes besides `runner` (docs/protocol.md#gvrunner_set), each by its rule. All are
 * optional in a call: a call changes the fields it names and keeps the rest.
 */
export const runnerSettingFields = {
  label: printable(1, 64),
  paused: z.boolean(),
  max_running: z.number().int().min(1).max(64),
  budget_per_day: z.number().int().min(2880).max(1_000_000_000),
  command: printable(1, 4096),
  plugin_dir: absolutePath,
  workdir_root: absolutePath,
  repository: printable(1, 4096).nullable(),
  deny_read: z.array(absolutePath).max(64),
  managed_settings: z.array(absolutePath).max(8).nullable(),
  poll_seconds: z.number().min(0.1).max(60),
  idle_poll_seconds: z.number().max(600),
  grace_seconds: z.number().min(0.5).max(300),
  key_seconds: z.number().int().min(1).max(3600),
  progress_seconds: z.number().int().min(0).max(3600),
  base_url: baseUrl.nullable(),
  models,
};

/** The fields a caller may set to null (docs/protocol.md#gvrunner_set). */
export const NULLABLE_SETTINGS = ['repository', 'managed_settings', 'base_url'] as const;

export type RunnerSettingsPatch = { [K in keyof typeof runnerSettingFields]?: z.output<(typeof runnerSettingFields)[K]> };

/**
 * A runner's whole settings as journaled and served to it. `base_url` absent means no
 * endpoint was chosen yet (a token has nowhere to go); null means the default provider.
 */
export interface RunnerSettings {
  label: string;
  paused: boolean;
  max_running: number;
  budget_per_day: number;
  command?: string;
  plugin_dir?: string;
  workdir_root?: string;
  repository: string | null;
  deny_read: string[];
  managed_settings: string[] | null;
  poll_seconds: number;
  idle_poll_seconds: number;
  grace_seconds: number;
  key_seconds: number;
  progress_seconds: number;
  base_url?: string | null;
  models: z.output<typeof models>;
}

export const settingsDefaults = (label: string): RunnerSettings => ({
  label,
  paused: false,
  max_running: 2,
  budget_per_day: 50_000,
  repository: null,
  deny_read: [],
  managed_settings: null,
  poll_seconds: 5,
  idle_poll_seconds: 60,
  grace_seconds: 10,
  key_seconds: 60,
  progress_seconds: 600,
  models: {},
});

/** Whether `path` is `root` or lies below it (both absolute; `.` and `..` segments resolved). */
export function isInside(path: string, root: string): boolean {
  const p = posix.normalize(path).replace(/\/+$/, '');
  const r = posix.normalize(root).replace(/\/+$/, '');
  return p === r || p.startsWith(`${r}/`) || r === '';
}

/**
 * Paths a crew's command reads that must not lie inside workdir_root, where the runner
 * makes and removes a work directory per question: what is there is a question's, not
 * the runner's (reason `inside_workdir`, the field named: docs/protocol.md#gvrunner_set).
 */
export function insideWorkdir(s: RunnerSettings): string | null {
  if (s.workdir_root === undefined) return null;
  const root = s.workdir_root;
  if (s.plugin_dir !== undefined && isInside(s.plugin_dir, root)) return 'plugin_dir';
  if (s.repository !== null && s.repository.startsWith('/') && isInside(s.repository, root)) return 'repository';
  const managed = (s.managed_settings ?? []).findIndex((m) => isInside(m, root));
  if (managed >= 0) return `managed_settings.${managed}`;
  return null;
}

/** Rules across fields, checked on the merged settings: the field named is the one the call sent. */
export function settingsProblem(s: RunnerSettings, sent: RunnerSettingsPatch): { field: string; message: string; reason?: string } | null {
  if (s.idle_poll_seconds < s.poll_seconds) {
    const field = sent.idle_poll_seconds !== undefined ? 'idle_poll_seconds' : 'poll_seconds';
    return { field, message: `idle_poll_seconds (${s.idle_poll_seconds}) is at least poll_seconds (${s.poll_seconds})` };
  }
  const inside = insideWorkdir(s);
  if (inside !== null) {
    // Named by the setting that lies inside; a call that only moved workdir_root is named by it.
    const field = sent.workdir_root !== undefined && sent[inside.split('.')[0] as keyof RunnerSettingsPatch] === undefined ? 'workdir_root' : inside;
    return { field, reason: 'inside_workdir', message: `${inside} lies inside workdir_root (${s.workdir_root}), where work directories are made and removed` };
  }
  return null;
}

/** A runner can be given a crew once it has a command to run and a model for some role type. */
export function configured(s: RunnerSettings | null): boolean {
  return s !== null && s.command !== undefined && ROLE_TYPES.some((t) => s.models[t] !== undefined);
}
