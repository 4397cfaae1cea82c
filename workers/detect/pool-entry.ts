/**
 * Piscina worker entry for the detect pool: a row's text in, the injection classifier's
 * highest attack score out (workers/detect/tei-predict.ts). The HTTP request and the reading
 * of its answer happen here, so model output never reaches the main thread unchecked. It
 * never touches SQLite.
 */
import type { DetectOutcome, DetectTask } from './detect-task.js';
import { detectText } from './tei-predict.js';
import { lowerThisThread } from '../thread-priority.js';

// The journal writer and the sockets win a contended core (workers/thread-priority.ts).
lowerThisThread();

export default function detectTask(task: DetectTask): Promise<DetectOutcome> {
  return detectText(task.target, task.text);
}
