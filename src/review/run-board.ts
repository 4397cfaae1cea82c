/** A reviewer run not yet journaled: waiting for the pool, or with the backend. */
export interface LiveRun {
  run_id: string;
  artifact_id: string;
  space: string;
  backend: string;
  model_label: string;
  stance: string;
  state: 'queued' | 'running';
  since: number;
}

/**
 * Runs in flight, in memory: they become journal facts when they end (completed, failed
 * or blocked). gv.review_runs reads queued and running runs from here.
 */
export class RunBoard {
  private readonly runs = new Map<string, LiveRun>();

  add(run: LiveRun): void {
    this.runs.set(run.run_id, run);
  }

  running(runId: string, now: number): void {
    const run = this.runs.get(runId);
    if (run !== undefined) Object.assign(run, { state: 'running', since: now });
  }

  end(runId: string): void {
    this.runs.delete(runId);
  }

  list(): LiveRun[] {
    return [...this.runs.values()];
  }

  holds(artifactId: string): boolean {
    for (const run of this.runs.values()) if (run.artifact_id === artifactId) return true;
    return false;
  }
}
