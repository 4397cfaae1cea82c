import type { Clock } from '../clock.js';
import type { GateConfig } from '../config/keys.js';
import type { Log } from '../log.js';
import type { Part, PartMaker } from '../part.js';
import type { RecallPart } from '../recall/recall-part.js';
import type { Store } from '../store/store.js';
import type { House } from '../verbs/house.js';
import type { ReviewPart } from '../review/review-part.js';
import { Detection } from '../review/detection.js';
import { Grading } from '../review/grading.js';
import { notCountedUnread } from '../review/read-before-signing.js';
import { ReviewBoard } from '../review/review-board.js';
import { ReviewSchedule } from '../review/review-schedule.js';
import type { ReviewSettings } from '../review/review-settings.js';
import { GradeStage } from '../../pipeline/grade-stage.js';
import { questionWaitsOver } from '../questions/wait-over.js';
import { crewQuestionsMoved } from '../questions/crew-moves.js';
import { OutcomePolling } from '../submission/outcome-polling.js';
import { pullOutcomes } from '../submission/outcome-pull.js';

/**
 * Review as one part (docs/architecture.md#parts-with-a-life): the injection detector, the
 * grade pool the board hands reviewer calls to, the board, and grading. It closes in the
 * order its pieces need: the detector first (its verdicts are journaled and may settle rows),
 * then the grade pool (every call sent is answered), then grading journals what is still on
 * the board; all before the writer, built before it, closes.
 */
export interface ReviewLife extends Part, Omit<ReviewPart, 'schedule'> {
  readonly detection: Detection | null;
}

export const reviewPart: PartMaker<
  GateConfig,
  { settings: ReviewSettings; store: Store; recall: RecallPart; clock: Clock; log: Log },
  ReviewLife
> = {
  name: 'review (the injection detector, the grade pool, grading)',
  create(config, { settings, store, recall, clock, log }) {
    const detection = config.detector.url === '' ? null : new Detection({ store, config, clock, log });
    const stage = new GradeStage({ threads: config.review.threads, concurrency: config.review.concurrency, batchMax: config.review.batch_max });
    const unread = (who: string, cls: Parameters<typeof notCountedUnread>[3], row: Parameters<typeof notCountedUnread>[4]) => notCountedUnread({ store }, config.review.read_before_signing, who, cls, row);
    const board = new ReviewBoard({ spaces: store.spaces, away: store.away }, settings, store.relations, store.reviews, store.comments, (id) => store.artifacts.byId(id), unread, clock, stage, detection);
    const grading = new Grading({ store, recall, config, clock, log }, board);
    return {
      board,
      grading,
      detection,
      close: async () => {
        await detection?.close();
        await stage.close();
        await grading.drain();
      },
    };
  },
};

/**
 * What `gate serve` runs on its own (src/review/review-schedule.ts): grading and the expiry
 * sweeps, the questions' and crews' sweeps each minute, the organization's outcomes. Built
 * last when the gate serves, so a shutdown stops it before any part it uses closes.
 */
export const reviewSchedulePart: PartMaker<GateConfig, { house: House }, Part & { readonly schedule: ReviewSchedule }> = {
  name: 'the review schedule',
  create(config, { house }) {
    const outcomesPolling = new OutcomePolling(house, () => pullOutcomes(house));
    const schedule = new ReviewSchedule(house, {
      minutely: [
        { failure: "the questions' wait sweep failed", run: () => questionWaitsOver(house) },
        { failure: "the crews' questions sweep failed", run: () => crewQuestionsMoved(house) },
      ],
      outcomes: { failure: "pulling the organization gate's outcomes failed", everyMs: OutcomePolling.checkEveryMs(config), run: () => outcomesPolling.runIfDue() },
    });
    return { schedule, close: () => schedule.stop() };
  },
};
