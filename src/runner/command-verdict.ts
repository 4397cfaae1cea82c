import type { CommandOutcome } from './command-run.js';

/**
 * What a crew's command said, read from its outcome. A command answers by printing, as
 * its last non-empty line on stdout, `{"answer": "..."}` or `{"refer": "why"}`; or it
 * answers through the gate itself with its member key and prints neither (silent).
 */
export type Verdict =
  | { kind: 'answer'; text: string }
  | { kind: 'refer'; text: string }
  | { kind: 'silent' }
  | { kind: 'failed'; text: string }
  | { kind: 'withdrawn' };

const TEXT_MAX = 16000;

function lastLine(stdout: string): Record<string, unknown> | null {
  const line = stdout.trimEnd().split('\n').at(-1)?.trim() ?? '';
  if (!line.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function readVerdict(outcome: CommandOutcome): Verdict {
  if (outcome.stopped === 'withdrawn' || outcome.stopped === 'shutdown') return { kind: 'withdrawn' };
  if (outcome.stopped === 'no_progress') return { kind: 'failed', text: 'The crew’s command made no progress and was stopped.' };
  const said = lastLine(outcome.stdout);
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.slice(0, TEXT_MAX) : null);
  if (outcome.code === 0 && said !== null && text(said['answer']) !== null) return { kind: 'answer', text: text(said['answer'])! };
  if (said !== null && text(said['refer']) !== null) return { kind: 'refer', text: text(said['refer'])! };
  if (outcome.code === 0) return { kind: 'silent' };
  return { kind: 'failed', text: `The crew’s command failed (exit ${outcome.code ?? 'by signal'}).` };
}
