import type { ServerResponse } from 'node:http';
import type { Pool } from 'pg';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/** Longest /readyz waits for the database before it says it does not answer. */
const DATABASE_DEADLINE_MS = 2_000;

const NO_STORE = { 'cache-control': 'no-store' };

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...NO_STORE, ...headers });
  res.end(text);
}

/**
 * The organization gate's health and metrics, kept apart from its doors: /livez answers
 * while the process does; /readyz is 503 while it stops or while its database does not
 * answer a `SELECT 1` within 2 s (every door reads and writes only the database); /metrics
 * counts what this process's door answered and reads the submissions' states from the
 * database at each scrape. Each org process reports the same database-wide submission
 * states (a dashboard takes max() of them) and its own door's answers (sum() of them).
 */
export class OrgHealth {
  private stopping = false;
  readonly registry = new Registry();
  private readonly requests: Counter<'status' | 'state'>;

  constructor(private readonly pool: Pool) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'gate_org_submission_requests_total',
      help: "PUT /submissions answered by this process, by HTTP status and the submission's state (leased, held, countersigned, refused; \"\" for a refusal).",
      labelNames: ['status', 'state'],
      registers,
    });
    new Gauge({
      name: 'gate_org_submissions',
      help: "The organization's submissions by state: leased and held wait in the inbox; countersigned and refused are its decisions; retracted left the inbox undecided when its member erased it (database-wide).",
      labelNames: ['state'],
      registers,
      collect: async function (this: Gauge<'state'>) {
        const rows = await pool.query<{ state: string; n: string }>('SELECT state, count(*) AS n FROM submissions GROUP BY state');
        this.reset();
        for (const state of ['leased', 'held', 'countersigned', 'refused', 'retracted']) this.set({ state }, 0);
        for (const r of rows.rows) this.set({ state: r.state }, Number(r.n));
      },
    });
  }

  /** A PUT /submissions answered. */
  submitted(status: number, body: Record<string, unknown> | null): void {
    const state = typeof body?.['state'] === 'string' ? body['state'] : '';
    this.requests.inc({ status: String(status), state });
  }

  /** From the first step of a shutdown on, /readyz answers 503. */
  stop(): void {
    this.stopping = true;
  }

  livez(res: ServerResponse): void {
    sendJson(res, 200, { live: true });
  }

  async readyz(res: ServerResponse): Promise<void> {
    const reasons: Array<{ reason: string; detail: string }> = [];
    if (this.stopping) reasons.push({ reason: 'stopping', detail: 'the organization gate is shutting down' });
    else {
      const problem = await this.databaseProblem();
      if (problem !== null) reasons.push({ reason: 'database_unreachable', detail: problem });
    }
    const body = { ready: reasons.length === 0, ...(reasons.length > 0 ? { reasons } : {}), degraded: false, degraded_reasons: [] };
    sendJson(res, reasons.length === 0 ? 200 : 503, body, reasons.length === 0 ? {} : { 'retry-after': '5' });
  }

  async metrics(res: ServerResponse): Promise<void> {
    const text = await this.registry.metrics();
    res.writeHead(200, { 'content-type': this.registry.contentType, 'content-length': Buffer.byteLength(text), ...NO_STORE });
    res.end(text);
  }

  private async databaseProblem(): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`the database did not answer within ${DATABASE_DEADLINE_MS} ms`), DATABASE_DEADLINE_MS);
    });
    try {
      const answered = this.pool.query('SELECT 1').then(
        () => null,
        (error: unknown) => `the database does not answer: ${error instanceof Error ? error.message : String(error)}`,
      );
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
