import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { InProcessGate } from '../harness/in-process-gate.js';
import { DeploymentKey } from '../../dist/src/credentials/deployment-key.js';
import { SigningThread } from '../../dist/src/journal/signing-thread.js';
import type { Caller } from '../../dist/src/access/caller.js';
import type { Log } from '../../dist/src/log.js';

/**
 * The ingest's two events are signed on the journal's signing thread while the main thread
 * runs the rest of the batch (src/journal/signing-thread.ts); their rows are inserted before
 * any other write and before COMMIT. What is stored must be exactly what signing on the main
 * thread stores, whatever else shares the batch and whatever becomes of the thread.
 */

let g: InProcessGate | undefined;
afterEach(async () => {
  await g?.close();
  g = undefined;
});

const agents: Caller[] = Array.from({ length: 4 }, (_, i) => ({
  identity: `key:signing-agent-${i}`,
  role: 'agent',
  kind: 'program',
  scope: null,
  demo: false,
  surface: 'http',
}));

const claim = (n: number | string) => ({
  content: `signing thread claim ${n} ${Math.random()}`,
  workarea: 'tests/signing',
  kind: 'memory',
  source_uri: 'test://signing',
});

async function openReady(): Promise<InProcessGate> {
  const gate = InProcessGate.open();
  await vi.waitFor(() => expect(gate.gate.signing.ready).toBe(true), { timeout: 30_000, interval: 20 });
  return gate;
}

/** Every stored signature, checked against signing the stored body with the home's key here. */
function expectSignaturesAsOnMainThread(gate: InProcessGate): number {
  const key = createPrivateKey(readFileSync(join(gate.home, 'deployment.key')));
  const rows = gate.gate.db.prepare('SELECT seq, body, sig FROM journal ORDER BY seq').all() as Array<{ seq: number; body: string; sig: string }>;
  const wrong = rows.filter((r) => r.sig !== sign(null, Buffer.from(r.body), key).toString('base64url')).map((r) => r.seq);
  expect(wrong).toEqual([]);
  return rows.length;
}

/** The whole chain verified by gv.audit_chain, and the views equal to the journal replayed. */
async function expectChainAndRebuild(gate: InProcessGate, events: number): Promise<void> {
  const chain = await gate.call(gate.admin, 'gv.audit_chain', {});
  expect(chain).toMatchObject({ ok: true, events });
  const rebuilt = await gate.call(gate.admin, 'gv.rebuild', {});
  expect(rebuilt.equal).toBe(true);
}

/** A home's key and a log that keeps its lines, for a SigningThread made here without a gate. */
function standaloneSigner(): { key: DeploymentKey; lines: string[]; log: Log } {
  const home = mkdtempSync(join(tmpdir(), 'gate-signing-'));
  const key = DeploymentKey.openOrCreate(join(home, 'deployment.key'));
  const lines: string[] = [];
  const log: Log = {
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
    debug: () => undefined,
    enabled: () => true,
    flush: () => undefined,
  };
  return { key, lines, log };
}

describe('the journal signing thread', () => {
  it('signs a concurrent ingest burst exactly as the main thread would, and the chain verifies', async () => {
    g = await openReady();
    const gate = g;
    const answers = await Promise.all(Array.from({ length: 240 }, (_, i) => gate.call(agents[i % agents.length]!, 'gv.ingest', claim(i))));
    expect(answers.every((a) => a.state === 'L1_SCANNED')).toBe(true);
    // The thread signed (not the main thread's fallback alone), and nothing is left owed.
    expect(gate.gate.signing.counts.offThread).toBeGreaterThan(0);
    expect(gate.gate.signing.owed).toBe(0);
    const events = expectSignaturesAsOnMainThread(gate);
    expect(gate.gate.db.prepare(`SELECT count(*) FROM journal WHERE type IN ('ingest', 'scan')`).pluck().get()).toBe(480);
    await expectChainAndRebuild(gate, events);
  });

  it('a batch mixing ingests, comments and a refused comment keeps seq order and the chain', async () => {
    g = await openReady();
    const gate = g;
    const target = await gate.call(agents[0]!, 'gv.ingest', claim('commented'));
    // Which commits held both an ingest and another write: the test is about those batches.
    const ranges: Array<{ after: number; last: number }> = [];
    gate.gate.store.writer.follow({ committed: (range) => ranges.push(range) });
    const typesIn = (r: { after: number; last: number }) =>
      new Set(gate.gate.db.prepare('SELECT type FROM journal WHERE seq > ? AND seq <= ?').pluck().all(r.after, r.last) as string[]);
    const refused: unknown[] = [];
    const mixed = () => ranges.some((r) => typesIn(r).has('ingest') && typesIn(r).has('comment'));
    // Ingests are written once scanned, comments as they arrive: loops of each, side by side, share commits.
    for (let round = 0; round < 10 && !mixed(); round++) {
      const ingestLoop = async (n: number) => {
        for (let i = 0; i < 10; i++) await gate.call(agents[n % agents.length]!, 'gv.ingest', claim(`${round}-${n}-${i}`));
      };
      const commentLoop = async (n: number) => {
        for (let i = 0; i < 20; i++) {
          if (i % 5 === 4) {
            // A reply to no comment is refused inside the write: its batch is replayed carefully.
            await gate
              .call(agents[0]!, 'gv.comment', { artifact_id: target.artifact_id, body: `reply ${round} ${n} ${i}`, reply_to: '0'.repeat(64) })
              .catch((e: unknown) => refused.push(e));
          } else {
            await gate.call(agents[0]!, 'gv.comment', { artifact_id: target.artifact_id, body: `note ${round} ${n} ${i}` });
          }
        }
      };
      await Promise.all([...Array.from({ length: 8 }, (_, n) => ingestLoop(n)), commentLoop(0), commentLoop(1)]);
    }
    expect(ranges.some((r) => typesIn(r).has('ingest') && typesIn(r).has('comment'))).toBe(true);
    // Refused inside the write (its params are valid), so its batch took the careful path.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((e) => e instanceof Error && e.message === 'reply_to is not a live comment on this row')).toBe(true);
    expect(gate.gate.signing.owed).toBe(0);
    const events = expectSignaturesAsOnMainThread(gate);
    await expectChainAndRebuild(gate, events);
  });

  it('writes deferred rows before a write that reads the journal, and a refused write leaves no row nor ticket behind', async () => {
    g = await openReady();
    const { db, signing } = g.gate;
    const { journal, writer } = g.gate.store;
    const stored = db.prepare('SELECT max(seq) FROM journal').pluck();
    const note = (n: number) => journal.appendForeign('signing-test', null, { n });
    const before = journal.chainHead.seq;
    const signedBefore = signing.counts.offThread + signing.counts.onMain;
    // Queued in one turn of the event loop: one batch, committed at the next.
    const writes = [
      writer.write(() => note(1), { signLater: true }),
      writer.write(() => note(2), { signLater: true }),
      // Not signing later: the rows before it are in the table when it runs.
      writer.write(() => ({ stored: stored.get(), head: journal.chainHead.seq, event: note(3) })),
      writer.write(
        () => {
          note(4);
          throw new Error('refused after appending');
        },
        { signLater: true },
      ),
      writer.write(() => note(5), { signLater: true }),
    ];
    const settled = await Promise.allSettled(writes);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const third = (settled[2] as PromiseFulfilledResult<{ stored: number; head: number }>).value;
    expect(third.stored).toBe(before + 2);
    expect(third.head).toBe(before + 2);
    const rows = db.prepare('SELECT seq, body FROM journal WHERE seq > ? ORDER BY seq').all(before) as Array<{ seq: number; body: string }>;
    // The refused write's event is gone, and the next one took its seq.
    expect(rows.map((r) => [r.seq, JSON.parse(r.body).data.n])).toEqual([
      [before + 1, 1],
      [before + 2, 2],
      [before + 3, 3],
      [before + 4, 5],
    ]);
    // Signatures taken, by the thread or here: 1 and 2 by the fast pass (written before 3 ran,
    // then rolled back with the batch at 4's refusal) and again by the careful one, and 5; 3
    // signed by its own write, 4 rolled back before it was written.
    expect(signing.counts.offThread + signing.counts.onMain).toBe(signedBefore + 5);
    expect(signing.owed).toBe(0);
    const events = expectSignaturesAsOnMainThread(g);
    expect((await g.call(g.admin, 'gv.audit_chain', {})).ok).toBe(true);
    expect(events).toBe(before + 4);
  });

  it('a thread killed mid-run: the main thread signs what it owed, a new thread takes over, every signature holds', async () => {
    g = await openReady();
    const gate = g;
    const first = gate.gate.signing.thread!;
    const burst = (from: number) => Array.from({ length: 60 }, (_, i) => gate.call(agents[i % agents.length]!, 'gv.ingest', claim(from + i)));
    const running = burst(0);
    // Killed while writes are queued and in flight, once the thread has signed some. Under the
    // suite's load a burst once committed whole before the thread answered any of it (its
    // signatures all made here): another burst follows each time the last one's first write
    // is answered while the thread has signed nothing, so writes stay in flight at any speed
    // of the machine (a condition, not a clock: test/README.md, "Waiting").
    let last = running;
    for (let more = 0; gate.gate.signing.counts.offThread === 0; more++) {
      if (more === 50) throw new Error('the signing thread signed nothing in 50 bursts of 60 writes');
      await Promise.race(last);
      if (gate.gate.signing.counts.offThread > 0) break;
      last = burst(3000 + 60 * more);
      running.push(...last);
    }
    void first.terminate();
    const more = burst(1000);
    const answers = await Promise.all([...running, ...more]);
    expect(answers.every((a) => a.state === 'L1_SCANNED')).toBe(true);
    await vi.waitFor(() => expect(gate.lines.some((l) => l.startsWith('warn the journal signing thread'))).toBe(true), { timeout: 30_000 });
    // A new thread, and it signs again.
    await vi.waitFor(() => expect(gate.gate.signing.ready).toBe(true), { timeout: 30_000, interval: 20 });
    expect(gate.gate.signing.thread).not.toBe(first);
    const offThread = gate.gate.signing.counts.offThread;
    await Promise.all(burst(2000));
    expect(gate.gate.signing.counts.offThread).toBeGreaterThan(offThread);
    expect(gate.gate.signing.owed).toBe(0);
    const events = expectSignaturesAsOnMainThread(gate);
    await expectChainAndRebuild(gate, events);
  });

  it('a thread stopped just before a commit: the commit signs what it owed on the main thread, and a new thread takes over', async () => {
    g = await openReady();
    const { signing } = g.gate;
    const { journal, writer } = g.gate.store;
    const onMain = signing.counts.onMain;
    const thread = signing.thread!;
    // Stopped before it can answer; the commit runs in this same turn, before the thread's exit is seen.
    void thread.terminate();
    const written = writer.write(() => journal.appendForeign('signing-test', null, { n: 'stopped' }), { signLater: true });
    writer.flush();
    await written;
    expect(signing.counts.onMain).toBe(onMain + 1);
    expect(signing.owed).toBe(0);
    await vi.waitFor(() => expect(g!.lines.some((l) => l.startsWith('warn the journal signing thread stopped'))).toBe(true), { timeout: 30_000 });
    await vi.waitFor(() => expect(signing.ready).toBe(true), { timeout: 30_000, interval: 20 });
    expect(signing.thread).not.toBe(thread);
    expectSignaturesAsOnMainThread(g);
    expect((await g.call(g.admin, 'gv.audit_chain', {})).ok).toBe(true);
  });

  it('posts two journal calls a message; a call still unposted at its commit is signed on the main thread, never posted', async () => {
    g = await openReady();
    const { signing } = g.gate;
    const { journal, writer } = g.gate.store;
    const note = (n: string) => journal.appendForeign('signing-test', null, { n });
    const { posts, onMain } = signing.counts;
    // One call alone in its commit: nothing is posted, the commit signs it.
    const alone = writer.write(() => note('alone'), { signLater: true });
    writer.flush();
    await alone;
    expect(signing.counts.posts).toBe(posts);
    expect(signing.counts.onMain).toBe(onMain + 1);
    // Two calls in one commit: one post carries both.
    const pair = [writer.write(() => note('first'), { signLater: true }), writer.write(() => note('second'), { signLater: true })];
    writer.flush();
    await Promise.all(pair);
    expect(signing.counts.posts).toBe(posts + 1);
    expect(signing.owed).toBe(0);
    expectSignaturesAsOnMainThread(g);
    expect((await g.call(g.admin, 'gv.audit_chain', {})).ok).toBe(true);
  });

  it('a thread silent past its bound while asked is replaced, and what it owed is signed on the main thread', async () => {
    const { key, lines, log } = standaloneSigner();
    const signer = new SigningThread(key, log, 20);
    try {
      await vi.waitFor(() => expect(signer.ready).toBe(true), { timeout: 30_000, interval: 10 });
      const first = signer.thread;
      // 64 MB to sign (SHA-512 over it twice) keeps the thread busy far past the 20 ms bound;
      // the second call posts both (two calls a post).
      const huge = 'x'.repeat(64 * 1024 * 1024);
      const ticket = signer.ask([huge]);
      expect(ticket).not.toBeNull();
      const second = signer.ask(['posted with the huge one'])!;
      expect(signer.counts.posts).toBe(1);
      await new Promise((r) => setTimeout(r, 60));
      expect(signer.answer(ticket)).toBeUndefined();
      expect(lines.filter((l) => l.startsWith('warn the journal signing thread answered nothing for 20 ms'))).toHaveLength(1);
      expect(signer.thread).not.toBe(first);
      const body = 'a body the main thread signs';
      expect(signer.signHere(ticket, [body])).toEqual([key.sign(body)]);
      expect(signer.signHere(second, [body])).toEqual([key.sign(body)]);
      expect(signer.owed).toBe(0);
      // The new thread answers.
      await vi.waitFor(() => expect(signer.ready).toBe(true), { timeout: 30_000, interval: 10 });
      const next = [signer.ask([body])!, signer.ask([`${body} too`])!];
      await vi.waitFor(() => expect(signer.answer(next[0]!)).toEqual([key.sign(body)]), { timeout: 30_000, interval: 5 });
      await vi.waitFor(() => expect(signer.answer(next[1]!)).toEqual([key.sign(`${body} too`)]), { timeout: 30_000, interval: 5 });
    } finally {
      await signer.close();
    }
  });

  it('gives up after three failures in a row, counting only failures with no answer between them, and signs on the main thread from then on', async () => {
    const { key, lines, log } = standaloneSigner();
    const signer = new SigningThread(key, log);
    const warned = () => lines.filter((l) => l.startsWith('warn the journal signing thread stopped')).length;
    /** Waits for a ready thread other than `previous`, then kills it before it answers anything. */
    const killNext = async (previous: unknown) => {
      await vi.waitFor(() => expect(signer.ready && signer.thread !== previous).toBe(true), { timeout: 30_000, interval: 10 });
      const thread = signer.thread!;
      const seen = warned();
      await thread.terminate();
      await vi.waitFor(() => expect(warned() + lines.filter((l) => l.startsWith('error ')).length).toBeGreaterThan(seen), { timeout: 30_000, interval: 10 });
      return thread;
    };
    try {
      // Two failures, then a thread that answers: the count starts again.
      let last = await killNext(null);
      last = await killNext(last);
      await vi.waitFor(() => expect(signer.ready && signer.thread !== last).toBe(true), { timeout: 30_000, interval: 10 });
      const tickets = [signer.ask(['answered once'])!, signer.ask(['answered twice'])!];
      await vi.waitFor(() => expect(signer.answer(tickets[0]!)).toEqual([key.sign('answered once')]), { timeout: 30_000, interval: 5 });
      expect(signer.answer(tickets[1]!)).toEqual([key.sign('answered twice')]);
      // Had the answer not reset it, the second of these would be the fourth failure in a row.
      last = await killNext(null);
      last = await killNext(last);
      expect(lines.filter((l) => l.startsWith('error '))).toEqual([]);
      expect(warned()).toBe(4);
      // The third in a row: no new thread, an error, and the main thread signs.
      await killNext(last);
      expect(lines.filter((l) => l.startsWith('error '))).toEqual([
        'error the journal signing thread stopped (exit code 1), failure 3 in a row: the main thread signs every event from now on',
      ]);
      await new Promise((r) => setTimeout(r, 300));
      expect(signer.thread).toBeNull();
      expect(signer.ready).toBe(false);
      expect(signer.ask(['after giving up'])).toBeNull();
      expect(signer.signHere(null, ['after giving up'])).toEqual([key.sign('after giving up')]);
      expect(warned()).toBe(4);
    } finally {
      await signer.close();
    }
  });
});
