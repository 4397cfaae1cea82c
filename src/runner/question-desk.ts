import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { GateClient } from '@gate/client';
import type { RunnerSettings } from '../domain/runner-settings.js';
import { CREW_SHEET_KIND, crewSheetOf, type CrewSheet, type RoleType } from '../domain/crew-sheet.js';
import { CommandRun, type CommandOutcome } from './command-run.js';
import { DayBudget } from './day-budget.js';
import { commandEnvironment, type RoutedQuestion } from './command-environment.js';
import { readVerdict, type Verdict } from './command-verdict.js';
import type { RunnerLog } from './runner.js';

export interface CrewOnDuty {
  space: string;
  sheet: string;
  members: Array<{ slot: string; role: string; key: string }>;
}

export interface DeskRound {
  settings: RunnerSettings;
  /** False while paused, before settings arrive, or while a setting is refused. */
  canStart: boolean;
  token: { version: number; value: string; origin: string | null } | null;
}

interface Running {
  question: string;
  space: string;
  slot: string;
  run: CommandRun;
  startedAt: number;
  workdir: string;
}

/**
 * The routed questions of this runner's crews and the commands answering them: polls
 * gv.routed_questions with a member key of each crew, starts the crew's command for each
 * new question in a fresh work directory (a free slot, under max_running and the day's
 * budget), and when it ends forwards its answer as an answer/1 row or refers the question.
 */
export class QuestionDesk {
  private readonly running = new Map<string, Running>();
  /** Questions this runner answered or referred (or that answered themselves): never started again, whatever a stale poll says. */
  private readonly finished = new Set<string>();
  /** Crew sheets by id, read once with a member key. */
  private readonly sheets = new Map<string, CrewSheet>();
  private sawWork = false;

  constructor(
    private readonly options: {
      url: string;
      /** The environment variable holding the runner key: never passed to a command. */
      keyEnv: string;
      log: RunnerLog;
      client: (key: string) => GateClient;
      wake: () => void;
      /** The day's budget, kept in the runner's state file. */
      budget: DayBudget;
    },
  ) {}

  private get budget(): DayBudget {
    return this.options.budget;
  }

  /** Busy while a command runs or the last poll found questions waiting. */
  busy(): boolean {
    return this.running.size > 0 || this.sawWork;
  }

  runningBySpace(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of this.running.values()) counts.set(r.space, (counts.get(r.space) ?? 0) + 1);
    return counts;
  }

  private runningMs(): number {
    const now = Date.now();
    return [...this.running.values()].reduce((ms, r) => ms + (now - r.startedAt), 0);
  }

  budgetReport(of: number) {
    return this.budget.report(of, this.runningMs());
  }

  /** Writes the running commands' time so far to the state file (each hello: a crash forgets at most one interval). */
  checkpoint(): void {
    this.budget.checkpoint(this.runningMs());
  }

  async poll(crews: CrewOnDuty[], round: DeskRound): Promise<void> {
    this.sawWork = false;
    for (const crew of crews) {
      let questions: RoutedQuestion[];
      try {
        const answer = await this.options.client(crew.members[0]!.key).call('gv.routed_questions', { space: crew.space });
        questions = answer['questions'] as RoutedQuestion[];
      } catch (error) {
        this.options.log('warn', 'routed questions unreadable', { space: crew.space, error: error instanceof Error ? error.message : String(error) });
        continue;
      }
      const listed = new Set(questions.map((q) => q.question));
      // A question no longer with the crew (answered, its wait over, sent to people) stops its command.
      for (const r of this.running.values()) {
        if (r.space === crew.space && !listed.has(r.question)) r.run.stop('withdrawn');
      }
      for (const q of questions) {
        if (this.running.has(q.question) || this.finished.has(q.question)) continue;
        this.sawWork = true;
        if (!round.canStart) continue;
        if (this.budget.spent(this.runningMs()) >= round.settings.budget_per_day) {
          await this.referSpent(q, crew, round.settings.budget_per_day);
          continue;
        }
        if (this.running.size >= round.settings.max_running) continue;
        const busySlots = new Set([...this.running.values()].map((r) => r.slot));
        const member = crew.members.find((m) => !busySlots.has(m.slot));
        if (member === undefined) continue;
        this.start(q, crew.space, member, round, await this.roleType(crew, member.role));
      }
    }
  }

  /**
   * The day's budget is spent: no command starts, and the question goes to people now, with
   * the reason in the referral's words, rather than wait with a crew that cannot work on it.
   */
  private async referSpent(q: RoutedQuestion, crew: CrewOnDuty, of: number): Promise<void> {
    const member = crew.members[0]!;
    const { day, spent } = this.budget.report(of, this.runningMs());
    const words = `The crew's day budget is spent (${spent} of ${of} seconds of command time on ${day}, UTC); no command was started. It starts again at 00:00 UTC.`;
    try {
      await this.send({ question: q.question, space: crew.space, slot: member.slot }, member.key, words, true);
      this.finished.add(q.question);
      this.options.log('info', 'question referred: day budget spent', { question: q.question, space: crew.space, day, spent, of });
    } catch (error) {
      this.options.log('warn', 'question outcome not delivered', { question: q.question, verdict: 'budget_spent', error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The member's role type by the crew's sheet (read once; null when it cannot be read). */
  private async roleType(crew: CrewOnDuty, role: string): Promise<RoleType | null> {
    if (!this.sheets.has(crew.sheet)) {
      try {
        const node = await this.options.client(crew.members[0]!.key).call('gv.node', { artifact_id: crew.sheet, body: true });
        const sheet = crewSheetOf(CREW_SHEET_KIND, typeof node['body'] === 'string' ? node['body'] : null);
        if (sheet !== null) this.sheets.set(crew.sheet, sheet);
      } catch (error) {
        this.options.log('warn', 'crew sheet unreadable', { sheet: crew.sheet, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return this.sheets.get(crew.sheet)?.roles.find((r) => r.role === role)?.type ?? null;
  }

  private start(q: RoutedQuestion, space: string, member: CrewOnDuty['members'][number], round: DeskRound, roleType: RoleType | null): void {
    const s = round.settings;
    let workdir: string;
    let cwd: string;
    try {
      workdir = mkdtempSync(join(s.workdir_root!, 'q-'));
      cwd = workdir;
      if (s.repository !== null) {
        cwd = join(workdir, 'checkout');
        execFileSync('git', ['clone', '--quiet', '--', s.repository, cwd], { stdio: 'ignore', timeout: 600_000 });
      }
    } catch (error) {
      this.options.log('error', 'work directory not made', { question: q.question, error: error instanceof Error ? error.message : String(error) });
      return;
    }
    const env = commandEnvironment({ url: this.options.url, keyEnv: this.options.keyEnv, question: q, space, member, settings: s, token: round.token, workdir: cwd, roleType });
    const run = new CommandRun(s.command!, { cwd, env, progressMs: s.progress_seconds * 1000, graceMs: s.grace_seconds * 1000 });
    const entry: Running = { question: q.question, space, slot: member.slot, run, startedAt: Date.now(), workdir };
    this.running.set(q.question, entry);
    this.options.log('info', 'command started', { question: q.question, space, slot: member.slot });
    void run.outcome.then((outcome) => this.finish(entry, member.key, outcome));
  }

  private async finish(entry: Running, memberKey: string, outcome: CommandOutcome): Promise<void> {
    this.budget.spend(outcome.ms);
    rmSync(entry.workdir, { recursive: true, force: true });
    const verdict = readVerdict(outcome);
    try {
      await this.forward(entry, memberKey, verdict);
      // A withdrawn question may come back to the crew (a reassignment undone): only a given word is final.
      if (verdict.kind !== 'withdrawn') this.finished.add(entry.question);
      this.options.log('info', 'question done', { question: entry.question, space: entry.space, slot: entry.slot, verdict: verdict.kind, exit: outcome.code, stopped: outcome.stopped, ms: outcome.ms });
    } catch (error) {
      this.options.log('warn', 'question outcome not delivered', {
        question: entry.question,
        verdict: verdict.kind,
        error: error instanceof Error ? error.message : String(error),
        stderr: outcome.stderrTail.slice(-500),
      });
    } finally {
      this.running.delete(entry.question);
      this.options.wake();
    }
  }

  /**
   * What the command's outcome becomes at the gate: an answer/1 row; a referral (it said
   * so, it failed, or it ended silent while the question is still with the crew); nothing
   * when it was withdrawn or answered through the gate itself.
   */
  private async forward(entry: Running, memberKey: string, verdict: Verdict): Promise<void> {
    if (verdict.kind === 'withdrawn') return;
    const client = this.options.client(memberKey);
    if (verdict.kind === 'silent') {
      const still = (await client.call('gv.routed_questions', { space: entry.space }))['questions'] as RoutedQuestion[];
      if (!still.some((q) => q.question === entry.question)) return;
    }
    const text = verdict.kind === 'silent' ? 'The crew’s command ended without an answer.' : verdict.text;
    await this.send(entry, memberKey, text, verdict.kind !== 'answer');
  }

  /** An answer/1 row by the member key, answering `question` or (refer) sending it to people. */
  private async send(to: { question: string; space: string; slot: string }, memberKey: string, text: string, refer: boolean): Promise<void> {
    const client = this.options.client(memberKey);
    const ingest = (words: string) =>
      client.call('gv.ingest', {
        space: to.space,
        workarea: to.slot,
        kind: 'answer',
        source_uri: `gate-runner:${to.slot}`,
        content: JSON.stringify({ format: 'answer/1', answer: words, ...(refer ? { refer: true } : {}) }),
        derives_from: [to.question],
      });
    // The same words from the same member in the same space are one row (the duplicate rule):
    // words already given for another question are sent again naming this one.
    const sent = await ingest(text);
    if ('duplicate' in sent && sent.duplicate) await ingest(`${text}\n\n(For question ${to.question}.)`);
  }

  /** A crew taken from this runner: its commands end (SIGTERM, SIGKILL after the grace). */
  withdraw(space: string): void {
    for (const r of this.running.values()) if (r.space === space) r.run.stop('withdrawn');
  }

  async stopAll(): Promise<void> {
    for (const r of this.running.values()) r.run.stop('shutdown');
    await Promise.all([...this.running.values()].map((r) => r.run.outcome));
  }
}
