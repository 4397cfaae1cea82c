import type { Gate } from '../gate.js';
import { expireOverdue } from './expiry.js';
import { questionWaitsOver } from '../questions/wait-over.js';
import { crewQuestionsMoved } from '../questions/crew-moves.js';
import { gradePending } from './pending-grading.js';
import { settlePending } from './settlement.js';
import { pullOutcomes } from '../submission/outcome-pull.js';

/** The expiry sweep's period: cheap (one indexed query), so often enough that a deadline is met within a minute. */
const EXPIRY_EVERY_MS = 60_000;

export interface ScheduleStatus {
  every_ms: number;
  running: boolean;
  runs: number;
  overlaps_skipped: number;
  last_started: number | null;
  last_finished: number | null;
  last_result: Record<string, unknown> | null;
  last_error: string | null;
}

/**
 * What `gate serve` runs on its own: gv.grade_pending every `[review].grade_every` (then
 * settling auto spaces), never overlapping itself (a tick that finds a run going is
 * skipped and counted), and the expiry sweeps every minute (rows' human-review time-to-live,
 * questions' waits for people). The deployment signs what it
 * journals (by is null).
 */
export class ReviewSchedule {
  private gradeTimer: NodeJS.Timeout | null = null;
  private expiryTimer: NodeJS.Timeout | null = null;
  private outcomesTimer: NodeJS.Timeout | null = null;
  private pulling: Promise<unknown> | null = null;
  private current: Promise<void> | null = null;
  private readonly state: ScheduleStatus;

  constructor(private readonly gate: Gate) {
    this.state = {
      every_ms: gate.review.board.settings.gradeEveryMs,
      running: false,
      runs: 0,
      overlaps_skipped: 0,
      last_started: null,
      last_finished: null,
      last_result: null,
      last_error: null,
    };
  }

  get status(): ScheduleStatus {
    return { ...this.state };
  }

  start(): void {
    if (this.state.every_ms > 0) this.gradeTimer = setInterval(() => this.tick(), this.state.every_ms);
    this.expiryTimer = setInterval(() => {
      expireOverdue(this.gate).catch((error: unknown) => this.gate.log.error('the expiry sweep failed', error));
      questionWaitsOver(this.gate).catch((error: unknown) => this.gate.log.error("the questions' wait sweep failed", error));
      crewQuestionsMoved(this.gate).catch((error: unknown) => this.gate.log.error("the crews' questions sweep failed", error));
    }, EXPIRY_EVERY_MS);
    const { url, poll_every_ms } = this.gate.config.org;
    if (url !== '' && poll_every_ms > 0) {
      this.outcomesTimer = setInterval(() => {
        // A pull still going (a slow door) is not doubled; gv.outcomes_pull meanwhile is refused pull_running.
        if (this.pulling !== null) return;
        this.pulling = pullOutcomes(this.gate)
          .catch((error: unknown) => this.gate.log.error("pulling the organization gate's outcomes failed", error))
          .finally(() => (this.pulling = null));
      }, poll_every_ms);
    }
  }

  private tick(): void {
    if (this.current !== null) {
      this.state.overlaps_skipped += 1;
      return;
    }
    this.state.running = true;
    this.state.last_started = this.gate.clock.now();
    this.current = (async () => {
      try {
        const graded = await gradePending(this.gate, this.gate.review.board.settings.gradeLimit, null);
        const settled = await settlePending(this.gate, this.gate.review.board.settings.gradeLimit);
        this.state.last_result = { ...graded, settled: settled.promoted + settled.ratified };
        this.state.last_error = null;
      } catch (error) {
        this.state.last_error = error instanceof Error ? error.message : String(error);
        this.gate.log.error('scheduled grading failed', error);
      } finally {
        this.state.runs += 1;
        this.state.running = false;
        this.state.last_finished = this.gate.clock.now();
        this.current = null;
      }
    })();
  }

  /** Stops the timers and grading, and waits for the calls a run has already made. */
  async stop(): Promise<void> {
    if (this.gradeTimer !== null) clearInterval(this.gradeTimer);
    if (this.expiryTimer !== null) clearInterval(this.expiryTimer);
    if (this.outcomesTimer !== null) clearInterval(this.outcomesTimer);
    await this.pulling;
    this.gate.review.grading.halt();
    await this.current;
  }
}
