import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessServer } from '../harness/in-process-server.js';
import { httpRequest } from '../harness/gate-process.js';
import { ingestParams } from '../harness/ingest.js';
import { stalledPost } from '../harness/stalled-request.js';
import { familyOf, histogramCounts, parseMetrics, sampleSum, type MetricFamily } from '../harness/prometheus-text.js';

/**
 * GET /metrics in the Prometheus text format, read by a Prometheus text parser that is not
 * ours, after real work: requests by verb and outcome, latency histograms, recall by mode,
 * ingest and rejection counts, quarantine depth, each stage's queue, grading calls, budget,
 * the journal's size and the WAL checkpoints. Served to a key with scope metrics on the main
 * port, and with no credential on server.metrics_address only.
 */
describe('GET /metrics, /livez and /readyz', () => {
  let gate: InProcessServer;
  let metricsKey: string;

  const scrapeText = async (): Promise<string> => {
    const res = await httpRequest(gate.metricsUrl!, 'GET', '/metrics');
    expect(res.status).toBe(200);
    return res.text;
  };
  const scrape = async (): Promise<MetricFamily[]> => parseMetrics(await scrapeText());

  beforeAll(async () => {
    gate = await InProcessServer.start({ 'server.metrics_address': '127.0.0.1:0' });
    const issued = await gate.socket('gv.keys', { action: 'issue', role: 'reviewer', scope: 'metrics', label: 'prometheus' });
    metricsKey = issued.result.key;
  });
  afterAll(() => gate?.stop());

  it('on the main port, only a key with scope metrics reads /metrics, and that key reads nothing else but gv.ping', async () => {
    expect((await gate.http('GET', '/metrics')).status).toBe(401);
    const admin = await gate.issueKey('admin');
    const refused = await gate.http('GET', '/metrics', { key: admin.key });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ kind: 'scope' });
    const served = await gate.http('GET', '/metrics', { key: metricsKey });
    expect(served.status).toBe(200);
    expect(parseMetrics(served.text).length).toBeGreaterThan(10);
    expect((await gate.rpc(metricsKey, 'gv.ping')).result).toMatchObject({ pong: true });
    const describe = await gate.http('POST', '/rpc', { key: metricsKey, body: { jsonrpc: '2.0', id: 1, method: 'gv.describe' } });
    expect(describe.status).toBe(403);
    expect((await gate.http('GET', '/openapi.json', { key: metricsKey })).status).toBe(403);
    expect((await gate.socket('gv.keys', { action: 'issue', role: 'agent', scope: 'metrics' })).error?.message).toContain('reviewer');
  });

  it('the metrics address serves /metrics and the probes with no credential, and nothing else', async () => {
    expect((await httpRequest(gate.metricsUrl!, 'GET', '/rpc')).status).toBe(404);
    expect((await httpRequest(gate.metricsUrl!, 'POST', '/metrics')).status).toBe(405);
    expect((await httpRequest(gate.metricsUrl!, 'GET', '/livez')).json).toEqual({ live: true });
    expect((await httpRequest(gate.metricsUrl!, 'GET', '/readyz')).json).toMatchObject({ ready: true });
  });

  it('counts requests, recalls by mode, ingests, rejections, grading calls and reads the queues, budget and journal', async () => {
    const agent = await gate.issueKey('agent');
    const reviewer = await gate.issueKey('reviewer');
    const kept = (await gate.rpc(agent.key, 'gv.ingest', ingestParams({ content: 'Builds use Node 20 on the metrics test runner.' }))).result;
    const dropped = (await gate.rpc(agent.key, 'gv.ingest', ingestParams({ content: 'A claim the reviewer will reject in the metrics test.' }))).result;
    expect(kept.state).toBe('L1_SCANNED');
    expect((await gate.rpc(reviewer.key, 'gv.reject', { artifact_id: dropped.artifact_id, reason: 'not needed' })).error).toBeUndefined();
    expect((await gate.rpc(agent.key, 'gv.recall', { query: 'Node builds', mode: 'lexical' })).error).toBeUndefined();
    expect((await gate.socket('gv.recall', { query: 'Node builds', mode: 'vector' })).error).toBeUndefined();
    expect((await gate.rpc(agent.key, 'gv.recall', { query: 'Node builds' })).error).toBeUndefined();
    expect((await gate.rpc(agent.key, 'gv.keys', {})).error?.code).toBe(-32602);
    expect((await gate.socket('gv.grade_pending', {})).error).toBeUndefined();

    const text = await scrapeText();
    const families = parseMetrics(text);
    const requests = familyOf(families, 'gate_requests_total');
    expect(requests.type).toBe('COUNTER');
    expect(sampleSum(requests, { door: 'rpc', verb: 'gv.ingest', outcome: 'ok' })).toBe(2);
    expect(sampleSum(requests, { door: 'rpc', verb: 'gv.keys', outcome: 'refused' })).toBe(1);
    expect(sampleSum(requests, { door: 'socket', verb: 'gv.grade_pending', outcome: 'ok' })).toBe(1);
    const latency = familyOf(families, 'gate_request_duration_seconds');
    expect(latency.type).toBe('HISTOGRAM');
    expect(latency.metrics[0]!.buckets).toHaveProperty('+Inf');
    const ingestTimed = histogramCounts(text, 'gate_request_duration_seconds').find((c) => c.labels['verb'] === 'gv.ingest' && c.labels['door'] === 'rpc');
    expect(ingestTimed?.count).toBe(2);
    expect(familyOf(families, 'gate_recall_duration_seconds').type).toBe('HISTOGRAM');
    const recalls = histogramCounts(text, 'gate_recall_duration_seconds');
    const recallsBy = (mode: string) => recalls.find((c) => c.labels['mode'] === mode)?.count ?? 0;
    expect([recallsBy('lexical'), recallsBy('vector'), recallsBy('hybrid')]).toEqual([1, 1, 1]);

    expect(sampleSum(familyOf(families, 'gate_claims_ingested_total'))).toBe(2);
    expect(sampleSum(familyOf(families, 'gate_claims_rejected_total'), { event: 'reject' })).toBe(1);
    expect(sampleSum(familyOf(families, 'gate_journal_events_total'), { type: 'ingest' })).toBe(2);
    // The embedded reviewer graded the held claim, one call per stance (positive and critical).
    expect(sampleSum(familyOf(families, 'gate_grading_calls_total'), { backend: 'local', outcome: 'completed' })).toBe(2);
    expect(sampleSum(familyOf(families, 'gate_quarantine_max_depth'))).toBe(100000);
    const budget = familyOf(families, 'gate_grading_budget_tokens');
    expect(sampleSum(budget, { part: 'per_day' })).toBe(200000);
    expect(familyOf(families, 'gate_stage_queued').metrics.map((m) => m.labels?.['stage']).sort()).toEqual(['bundle', 'embed', 'grade', 'image', 'scan']);
    expect(familyOf(families, 'gate_stage_oldest_wait_seconds').metrics).toHaveLength(5);
    expect(sampleSum(familyOf(families, 'gate_journal_events'))).toBeGreaterThan(5);
    expect(sampleSum(familyOf(families, 'gate_journal_bytes'), { file: 'db' })).toBeGreaterThan(0);
    expect(familyOf(families, 'gate_wal_checkpoint_age_seconds').type).toBe('GAUGE');
    expect(familyOf(families, 'process_cpu_seconds_total').type).toBe('COUNTER');
  });

  it('says degraded in /readyz without a 503 while the operator is away', async () => {
    expect((await gate.socket('gv.away', { note: 'readiness check' })).error).toBeUndefined();
    try {
      const ready = await gate.http('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.json).toMatchObject({ ready: true, degraded: true, degraded_reasons: [expect.objectContaining({ reason: 'review_paused' })] });
      expect(sampleSum(familyOf(await scrape(), 'gate_review_paused'))).toBe(1);
    } finally {
      await gate.socket('gv.back', {});
    }
  });

  it('answers /readyz 503 "stopping" from the moment a shutdown starts, while requests in flight are answered', async () => {
    // A request whose body never finishes arriving holds the drain open.
    const stalled = stalledPost(gate.url, '/rpc', { authorization: `Bearer ${metricsKey}` }, 1000, '{"jsonrpc":');
    await gate.http('GET', '/livez');
    const stopping = gate.stop();
    let answer = await httpRequest(gate.metricsUrl!, 'GET', '/readyz');
    while (answer.status === 200) answer = await httpRequest(gate.metricsUrl!, 'GET', '/readyz');
    expect(answer.status).toBe(503);
    expect(answer.json).toMatchObject({ ready: false, reasons: [expect.objectContaining({ reason: 'stopping' })] });
    expect((await httpRequest(gate.metricsUrl!, 'GET', '/livez')).status).toBe(200);
    stalled.destroy();
    await stopping;
  });
});
