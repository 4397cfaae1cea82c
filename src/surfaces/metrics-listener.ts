import { createServer, type Server, type ServerResponse } from 'node:http';
import { sendJson } from '../http-rpc/http-replies.js';

/** How a listener answers each of its three paths. */
export interface ProbeAnswers {
  livez(res: ServerResponse): void;
  readyz(res: ServerResponse): void | Promise<void>;
  metrics(res: ServerResponse): Promise<void>;
}

const PATHS = ['/livez', '/readyz', '/metrics'];

/**
 * The second listener of `server.metrics_address` (and the organization's
 * `org.metrics_address`): GET /metrics, /livez and /readyz with no credential, nothing else.
 * It is for an address only a monitoring network reaches; on the gate's main port /metrics
 * needs a key with scope metrics.
 */
export function createMetricsListener(answers: ProbeAnswers, failed: (error: unknown) => void): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://metrics.invalid').pathname;
    if (!PATHS.includes(path)) return sendJson(res, 404, { error: `no route ${req.method} ${path}: this address serves ${PATHS.join(', ')} only` });
    if (req.method !== 'GET') return sendJson(res, 405, { error: `method ${req.method} not allowed on ${path}` }, { allow: 'GET' });
    const answered = path === '/livez' ? answers.livez(res) : path === '/readyz' ? answers.readyz(res) : answers.metrics(res);
    Promise.resolve(answered).catch((error: unknown) => {
      failed(error);
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
    });
  });
}
