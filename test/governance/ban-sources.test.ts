import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reviewer }, ingestAnswer } = useGate({ kind: 'unit', keys: { agent: 'agent', reviewer: 'reviewer' } });

const ingest = (sourceUri: string, key = agent.key) => ingestAnswer(key, { content: uniqueText('sourced'), workarea: 'tests/ban-source', source_uri: sourceUri });
const ban = (subject: string, extra: Record<string, unknown> = {}) => gate.socket('gv.ban', { kind: 'source', subject, reason: 'untrusted origin', ...extra });

describe('a source ban refuses an ingest whose source_uri falls under its prefix', () => {
  it('scheme and host case, default port, trailing slash, dot segments and percent-encoding are one spelling; a path is a path', async () => {
    const stood = await ban('HTTPS://Docs.Example:443/private/');
    // The subject is stored and served in its normal form.
    expect(stood.result).toMatchObject({ kind: 'source', subject: 'https://docs.example/private', active: true, changed: true });
    const refused = [
      'https://docs.example/private',
      'https://docs.example/private/',
      'https://DOCS.EXAMPLE/private/report.md',
      'HTTPS://docs.example:443/private/x',
      'https://docs.example/%70rivate/x',
      'https://docs.example/public/../private/x',
      'https://docs.example/public/%2e%2e/private/x',
      'https://docs.example/private?page=2',
      'https://docs.example/private#top',
    ];
    for (const uri of refused) {
      expect((await ingest(uri)).error, uri).toMatchObject({ code: -32009, data: { kind: 'source', subject: 'https://docs.example/private' } });
    }
    const admitted = [
      'https://docs.example/private2',
      'https://docs.example/Private/x',
      'https://docs.example/%2Fprivate',
      'https://docs.example.evil/private/x',
      'https://docs.example:8443/private/x',
      'http://docs.example/private/x',
      'https://docs.example/',
    ];
    for (const uri of admitted) expect((await ingest(uri)).result?.state, uri).toBe('L1_SCANNED');
    // The same ban spelled another way is a repeat; a lift spelled another way lifts it.
    expect((await ban('https://docs.example/private')).result).toMatchObject({ changed: false, active: true, event_id: stood.result.event_id });
    expect((await gate.socket('gv.ban', { kind: 'source', subject: 'https://DOCS.example/private//', lift: true })).result).toMatchObject({ changed: true, active: false });
    expect((await ingest('https://docs.example/private/after-lift')).result.state).toBe('L1_SCANNED');
  });

  it('a prefix with a query matches by characters; a scheme alone bans the scheme; other schemes lower-case only scheme and host', async () => {
    await ban('https://search.example/find?q=');
    expect((await ingest('https://search.example/find?q=anything')).error?.code).toBe(-32009);
    expect((await ingest('https://search.example/find?r=1')).result.state).toBe('L1_SCANNED');
    await ban('s3://Bucket-One/Logs');
    expect((await ingest('S3://bucket-one/Logs/2026/a.txt')).error?.code).toBe(-32009);
    expect((await ingest('s3://bucket-one/logs/2026/a.txt')).result.state).toBe('L1_SCANNED');
    expect((await ingest('s3://bucket-one-b/Logs/a.txt')).result.state).toBe('L1_SCANNED');
    await ban('gopher:');
    expect((await ingest('gopher://anything.example/1')).error?.code).toBe(-32009);
    // A prefix that normalises to nothing names no source.
    expect((await gate.socket('gv.ban', { kind: 'source', subject: '/', reason: 'x' })).error).toMatchObject({ code: -32602, data: { field: 'subject' } });
  });

  it("a dry run lists the matching sources (at most 50) and counts their promoted and held rows, journaling nothing", async () => {
    const base = `https://dry.example/${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) ids.push((await ingest(`${base}/page-${String(i).padStart(2, '0')}`)).result.artifact_id);
    await ingest(`${base}-sibling/page`);
    for (const id of ids.slice(0, 2)) {
      await gate.readBody(reviewer.key, id);
      expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
    }
    const tipBefore = (await gate.socket('gv.audit_chain', {})).result;
    const dry = await gate.socket('gv.ban', { kind: 'source', subject: `${base.toUpperCase().replace('HTTPS://DRY.EXAMPLE', 'https://DRY.example')}/`, dry_run: true });
    expect(dry.error).toBeUndefined();
    // The path keeps its case: the upper-cased path matches nothing.
    expect(dry.result).toMatchObject({ dry_run: true, sources: [], truncated: false, promoted: 0, held: 0 });
    const real = await gate.socket('gv.ban', { kind: 'source', subject: `${base}/`, dry_run: true });
    expect(real.result).toEqual({
      kind: 'source',
      subject: base,
      dry_run: true,
      sources: Array.from({ length: 50 }, (_, i) => `${base}/page-${String(i).padStart(2, '0')}`),
      truncated: true,
      promoted: 2,
      held: 50,
    });
    expect((await gate.socket('gv.audit_chain', {})).result).toEqual(tipBefore);
    // Nothing stands after a dry run.
    expect((await ingest(`${base}/page-99`)).result.state).toBe('L1_SCANNED');
  });
});
