/**
 * A pool task that ended its worker: it ran past its deadline (the worker was terminated,
 * since a synchronous loop cannot be interrupted any other way), went over its heap limit
 * (`resourceLimits`), or its worker exited under it. The pool has already replaced the
 * worker; the stage that ran the task turns this into a refusal with a reason.
 */
export type OverrunLimit = 'deadline' | 'memory' | 'worker_exit';

export class TaskOverrun extends Error {
  constructor(
    readonly limit: OverrunLimit,
    message: string,
  ) {
    super(message);
  }
}
