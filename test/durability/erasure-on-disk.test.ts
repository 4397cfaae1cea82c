import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readAttachment, sha256Of, upload } from '../harness/attachments.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { writer, reviewer } } = useGate({ kind: 'unit', keys: { writer: 'agent', reviewer: 'reviewer' } });

/** Lower-case letters and digits only, so the FTS index stores it as one token spelled as in the body. */
const marker = (label: string) => `${label}${randomBytes(8).toString('hex')}`;

/** Every file under the gate's home (gate.db and held-index.db with their WALs and shm, attachments, uploads, keys), with its bytes. */
function filesUnder(dir: string): Array<{ path: string; bytes: Buffer }> {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (st === undefined || st.isSocket()) return [];
    if (st.isDirectory()) return filesUnder(path);
    return [{ path, bytes: readFileSync(path) }];
  });
}

const holding = (needle: string) => filesUnder(gate.home).filter((f) => f.bytes.includes(Buffer.from(needle, 'utf8'))).map((f) => f.path.slice(gate.home.length + 1));

describe('erased content is gone from disk', () => {
  it('the body, the masked copy, the index entries and the attachment leave gate.db, held-index.db, their WALs and the attachment folder', async () => {
    const inBody = marker('zqbody');
    const inFile = marker('zqfile');
    const inFlagged = marker('zqflag');
    // Longer than a page, so the blob spills into overflow pages too.
    const text = `${inBody} the lighthouse budget closes on the third friday. ${'Quarterly figures stay in the ledger. '.repeat(150)} ${inBody}`;
    const file = Buffer.from(`attachment notes ${inFile} for the lighthouse project\n`, 'utf8');
    expect((await upload(gate, writer.key, file)).result?.complete).toBe(true);
    const fileHash = sha256Of(file);
    const row = (await gate.rpc(writer.key, 'gv.ingest', {
      content: text, workarea: 'erase/disk', kind: 'memory', source_uri: 'test://disk', attachments: [{ sha256: fileHash, name: 'notes.txt' }],
    })).result.artifact_id as string;
    await gate.readBody(reviewer.key, row);
    await readAttachment(gate, reviewer.key, row, fileHash);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row })).result?.state).toBe('ACTIVE');
    // A scanner finding: the masked copy differs from the body and is stored beside it.
    const flagged = await gate.rpc(writer.key, 'gv.ingest', {
      content: `${inFlagged} deploy token: ghp_${'Zq8'.repeat(12)} for the lighthouse build`, workarea: 'erase/disk', kind: 'memory', source_uri: 'test://disk',
    });
    expect(flagged.result.state).toBe('L1B_FLAGGED');
    // A held row: its words are in held-index.db (written by its own thread), found by its writer's recall.
    const inHeld = marker('zqheld');
    const held = (await gate.rpc(writer.key, 'gv.ingest', {
      content: `${inHeld} the held draft of the lighthouse plan`, workarea: 'erase/disk', kind: 'memory', source_uri: 'test://disk',
    })).result;
    expect(held.state).toBe('L1_SCANNED');
    const heldHits = (await gate.rpc(writer.key, 'gv.recall', { query: inHeld, mode: 'lexical' })).result.hits as Array<{ artifact_id: string }>;
    expect(heldHits.map((h) => h.artifact_id)).toEqual([held.artifact_id]);

    // The test can see what it looks for: before the erasure every marker is on disk.
    expect(holding(inBody).some((p) => p.startsWith('gate.db'))).toBe(true);
    expect(holding(inFlagged).some((p) => p.startsWith('gate.db'))).toBe(true);
    expect(holding(inFile).some((p) => p.startsWith('attachments/objects/'))).toBe(true);
    expect(holding(inHeld).some((p) => p.startsWith('held-index.db'))).toBe(true);

    const erased = await gate.socket('gv.erase', { artifact_id: row, reason: 'asked to forget' });
    expect(erased.result).toMatchObject({ changed: true, bytes_removed: true, attachments_removed: [fileHash], wal_truncated: true, secure_delete: true });
    const erasedFlagged = await gate.socket('gv.erase', { artifact_id: flagged.result.artifact_id, reason: 'asked to forget' });
    expect(erasedFlagged.result).toMatchObject({ changed: true, bytes_removed: true, masked_removed: true, wal_truncated: true });

    const erasedHeld = await gate.socket('gv.erase', { artifact_id: held.artifact_id, reason: 'asked to forget' });
    expect(erasedHeld.result).toMatchObject({ changed: true, bytes_removed: true, wal_truncated: true });

    for (const needle of [inBody, inFile, inFlagged, inHeld]) expect(holding(needle)).toEqual([]);
    expect(statSync(join(gate.home, 'gate.db-wal')).size).toBe(0);
    expect(statSync(join(gate.home, 'held-index.db-wal')).size).toBe(0);

    // The row's metadata stays, its attachment is refused, its writer's upload is no longer there to name.
    const attachment = await gate.rpc(reviewer.key, 'gv.attachment', { artifact_id: row, content_hash: fileHash });
    expect(attachment.error).toMatchObject({ code: -32602, data: { reason: 'erased' } });
    const status = await gate.rpc(writer.key, 'gv.upload', { sha256: fileHash, size_bytes: file.length });
    expect(status.result).toMatchObject({ received: 0, complete: false, reason: 'erased' });

    // Replaying the journal needs none of the erased bytes, and leaves none behind.
    await gate.stop();
    await gate.restart();
    const rebuild = await gate.socket('gv.rebuild');
    expect(rebuild.result?.equal).toBe(true);
    expect((await gate.socket('gv.audit_chain')).result.ok).toBe(true);
    for (const needle of [inBody, inFile, inFlagged, inHeld]) expect(holding(needle)).toEqual([]);
  });
});
