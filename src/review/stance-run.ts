import type { ReviewBackend } from './review-settings.js';

/** One stance's run on one row: its verdict, or why there is none. */
export interface StanceRun {
  stance: string;
  backend: string;
  model_label: string;
  state: 'completed' | 'failed' | 'blocked';
  /** Answered from the decision record: the same bytes, model, stance and rubric, no call made. */
  from_record: boolean;
  run_id: string | null;
  cost_tokens: number;
  decision?: 'approve' | 'reject';
  score?: number;
  rationale?: string;
  evidence?: string[];
  counterevidence?: string[];
  verdict_event_id?: string;
  failure?: string;
  detail?: string;
}

export interface StancePlan {
  stance: string;
  backend: ReviewBackend;
}

/** What a grading pass did: rows graded, runs failed or blocked, tokens spent, and why it paused, if it did. */
export interface GradeSummary {
  graded: number;
  failed: number;
  blocked: number;
  cost_tokens: number;
  paused: string | null;
}
