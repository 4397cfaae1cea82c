import { expireOverdue } from './expiry.js';
import { gradePending } from './pending-grading.js';
import { settlePending } from './settlement.js';
import type { Store } from '../store/store.js';
import type { ReviewPart, SchedulePart, ScheduleStatus } from './review-part.js';
import type { CrewsPart } from '../crews/crews-part.js';
import type { GateConfig } from '../config/keys.js';
import type { Clock } from '../clock.js';
import type { Log } from '../log.js';

/** The expiry sweep's period: cheap (one indexed query), so often enough that a deadline is met within a minute. */
const EXPIRY_EVERY_MS = 60_000;


/** A job the schedule runs for another layer, named for the log line of its failure. */
export interface ScheduledJob {
  failure: string;
  run: () => Promise<unknown>;
}

/** What the root hands the schedule beside its own grading and expiry (src/server.ts). */
export interface ScheduleJobs {
  /** Run every minute with the expiry sweep: the questions' waits, the crews' questions moved. */
  minutely: ScheduledJob[];
  /** The organization's outcomes, pulled every `everyMs` (a member gate only). */
  outcomes: (ScheduledJob & { everyMs: number }) | null;
}

/**
 * What `gate serve` runs on its own: gv.grade_pending every `[review].grade_every` (then
 * settling auto spaces), never overlapping itself (a tick that finds a run going is
 * skipped and counted), and the expiry sweeps every minute (rows' human-review time-to-live,
 * questions' waits for people). The deployment signs what it
 * journals (by is null).
 */
export class ReviewSchedule implements SchedulePart {
  private gradeTimer: NodeJS.Timeout | null = null;
  private expiryTimer: NodeJS.Timeout | null = null;
  private outcomesTimer: NodeJS.Timeout | null = null;
  private pulling: Promise<unknown> | null = null;
  private current: Promise<void> | null = null;
  private readonly state: ScheduleStatus;

  constructor(
    private readonly house: { readonly store: Store; readonly review: ReviewPart; readonly crews: CrewsPart; readonly config: GateConfig; readonly clock: Clock; readonly log: Log },
    private readonly jobs: ScheduleJobs,
  ) {
    this.state = {
      every_ms: house.review.board.settings.gradeEveryMs,
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
      expireOverdue(this.house).catch((error: unknown) => this.house.log.error('the expiry sweep failed', error));
      for (const job of this.jobs.minutely) job.run().catch((error: unknown) => this.house.log.error(job.failure, error));
    }, EXPIRY_EVERY_MS);
    const outcomes = this.jobs.outcomes;
    if (outcomes !== null) {
      this.outcomesTimer = setInterval(() => {
        // A pull still going (a slow door) is not doubled; gv.outcomes_pull meanwhile is refused pull_running.
        if (this.pulling !== null) return;
        this.pulling = outcomes
          .run()
          .catch((error: unknown) => this.house.log.error(outcomes.failure, error))
          .finally(() => (this.pulling = null));
      }, outcomes.everyMs);
    }
  }

  private tick(): void {
    if (this.current !== null) {
      this.state.overlaps_skipped += 1;
      return;
    }
    this.state.running = true;
    this.state.last_started = this.house.clock.now();
    this.current = (async () => {
      try {
        const graded = await gradePending(this.house, this.house.review.board.settings.gradeLimit, null);
        const settled = await settlePending(this.house, this.house.review.board.settings.gradeLimit);
        this.state.last_result = { ...graded, settled: settled.promoted + settled.ratified };
        this.state.last_error = null;
      } catch (error) {
        this.state.last_error = error instanceof Error ? error.message : String(error);
        this.house.log.error('scheduled grading failed', error);
      } finally {
        this.state.runs += 1;
        this.state.running = false;
        this.state.last_finished = this.house.clock.now();
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
    this.house.review.grading.halt();
    await this.current;
  }
}
