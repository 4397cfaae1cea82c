import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

// Issue 32 item 4: each of these was admitted with no finding.
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/scan/${name}`, import.meta.url), 'utf8');
const CASES = [
  { name: 'card with CVV', text: fixture('personal-card-cvv.txt'), kinds: ['personal.card-number', 'personal.card-security-code'], secret: ['4539 1488 0343 6467', '417'] },
  { name: 'SSN beside a name and address', text: fixture('personal-ssn-name-address.txt'), kinds: ['personal.ssn'], secret: ['287-65-4321'] },
  { name: 'IBAN', text: fixture('personal-iban.txt'), kinds: ['personal.iban'], secret: ['DE68 3704 0044 0532 0999 99'] },
  {
    name: 'phone and email beside a diagnosis',
    text: fixture('personal-health-contact.txt'),
    kinds: ['personal.health-contact', 'personal.health-contact'],
    secret: ['john.carter@fastmail.com', '415-867-5309'],
  },
];

/** A gate for the enclosing describe (useGate), with an agent and a reviewer key, and what the tests ask of it. */
function useServedGate(env: Record<string, string> = {}) {
  const { gate, keys: { agent, reviewer }, ingestResult } = useGate({ kind: 'unit', env, keys: { agent: 'agent', reviewer: 'reviewer' } });
  const ingest = (content: string) => ingestResult(agent, { content, workarea: 'tests/personal', source_uri: 'test://personal' });
  const queued = async (id: string) => {
    const queue = (await gate.rpc(reviewer.key, 'gv.review', { cap: 500 })).result;
    return [...queue.items, ...queue.held_steering].find((i: { artifact_id: string }) => i.artifact_id === id);
  };
  const maskedBody = async (id: string) => {
    const node = await gate.rpc(reviewer.key, 'gv.node', { artifact_id: id, body: true });
    expect(node.error, JSON.stringify(node.error)).toBeUndefined();
    return node.result as { preview: string; masked_body: string };
  };
  return { gate, reviewer, ingest, queued, maskedBody };
}

describe('personal data through a served gate (default severity)', () => {
  const g = useServedGate();

  it.each(CASES)('holds the $name in L1B_FLAGGED with its finding, the digits masked for every reader of the masked body', async (c) => {
    const row = await g.ingest(c.text);
    expect(row.state).toBe('L1B_FLAGGED');
    const item = await g.queued(row.artifact_id);
    expect(item.findings.map((f: { kind: string }) => f.kind)).toEqual(c.kinds);
    expect(item.findings.every((f: { severity: string }) => f.severity === 'high')).toBe(true);
    expect(item.findings.map((f: { start: number; end: number }) => c.text.slice(f.start, f.end))).toEqual(c.secret);
    const node = await g.maskedBody(row.artifact_id);
    for (const shown of [item.preview as string, node.preview, node.masked_body]) {
      for (const s of c.secret) expect(shown).not.toContain(s);
      for (const f of item.findings) expect(shown.slice(f.start, f.end)).toBe('█'.repeat(f.end - f.start));
    }
    // No reviewer's grade or promote clears it: a person's disposition does.
    expect((await g.gate.rpc(g.reviewer.key, 'gv.approval', { artifact_id: row.artifact_id })).result.waits_for).toMatchObject({
      blocker: 'hard_constraint',
      code: 'finding',
    });
  });

  it('lets a published test card number through with a low finding, masked', async () => {
    const text = fixture('clean-personal-test-card.txt');
    const row = await g.ingest(text);
    expect(row.state).toBe('L1_SCANNED');
    const item = await g.queued(row.artifact_id);
    expect(item.findings.map((f: { kind: string; severity: string }) => [f.kind, f.severity])).toEqual([
      ['personal.card-number', 'low'],
      ['personal.card-number', 'low'],
    ]);
    expect(item.preview).not.toContain('4111 1111 1111 1111');
  });
});

describe('personal data with scan.personal_data_severity = low', () => {
  const g = useServedGate({ GATE_SCAN_PERSONAL_DATA_SEVERITY: 'low' });

  it.each(CASES)('does not hold the $name, but its reviewer sees the low finding and the masked digits', async (c) => {
    const row = await g.ingest(c.text);
    expect(row.state).toBe('L1_SCANNED');
    const item = await g.queued(row.artifact_id);
    expect(item.findings.map((f: { kind: string; severity: string }) => [f.kind, f.severity])).toEqual(c.kinds.map((k) => [k, 'low']));
    for (const s of c.secret) expect(item.preview).not.toContain(s);
  });
});
