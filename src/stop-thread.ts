import type { Worker } from 'node:worker_threads';

/**
 * Asks a thread of the gate's (its entry stops on the message 'stop') to stop, and resolves
 * once it has exited; past `maxMs` it is terminated. A shutdown awaits this, so the thread
 * (and the bound on it) holds the event loop until it is gone: unref'd, as these threads are
 * while the gate runs, nothing else held it at that point of a shutdown and Node ended the
 * process mid-close with code 0, the database open and the home lock left.
 */
export function stopThread(worker: Worker, maxMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    worker.ref();
    const bound = setTimeout(() => void worker.terminate(), maxMs);
    worker.once('exit', () => {
      clearTimeout(bound);
      resolve();
    });
    worker.postMessage('stop');
  });
}
