import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { ROOT, uniqueText } from '../harness/gate-process.js';
import { readAttachment, sha256Of, upload } from '../harness/attachments.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent, reviewer } } = useGate({ kind: 'unit', keys: { agent: 'agent', reviewer: 'reviewer' } });

const fixture = (name: string) => readFileSync(join(ROOT, 'fixtures/images', name));

async function attach(bytes: Buffer, name: string) {
  const up = await upload(gate, agent.key, bytes);
  expect(up.error, JSON.stringify(up.error)).toBeUndefined();
  const row = await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('photo'), workarea: 'tests/images', source_uri: 's', kind: 'memory', attachments: [{ sha256: up.result.sha256, name }] });
  return { id: row.result.artifact_id as string, hash: up.result.sha256 as string };
}

describe('image attachments: the served copy is stripped in the image pool', () => {
  for (const [file, format] of [['gps.jpg', 'jpeg'], ['gps.png', 'png'], ['gps.webp', 'webp']] as const) {
    it(`${file}: no EXIF (GPS), XMP, ICC or comment in the served copy; stripped[] and served_hash say so`, async () => {
      const original = fixture(file);
      const before = await sharp(original).metadata();
      expect(before.exif && before.xmp && before.icc).toBeTruthy();
      const { id, hash } = await attach(original, 'IMG_0042.jpg');
      const { bytes, last } = await readAttachment(gate, agent.key, id, hash);
      const after = await sharp(bytes).metadata();
      expect(after.format).toBe(format);
      expect([after.exif, after.xmp, after.icc, after.iptc, after.comments]).toEqual([undefined, undefined, undefined, undefined, undefined]);
      expect([after.width, after.height]).toEqual([64, 48]);
      expect(bytes.includes(Buffer.from('GateCam'))).toBe(false);
      expect(bytes.includes(Buffer.from('Jane Doe'))).toBe(false);
      expect(last.served_hash).toBe(sha256Of(bytes));
      expect(last.served_hash).not.toBe(hash);
      expect(last.stripped).toEqual(expect.arrayContaining(['exif', 'gps', 'icc', 'xmp']));
      // A writer is not a reviewer: the removed metadata is for reviewers.
      expect(last).not.toHaveProperty('metadata');
    });
  }

  it('a reviewer sees the removed metadata, masked by the claim scanner, within 65,536 bytes of JSON', async () => {
    const { id, hash } = await attach(fixture('gps.jpg'), 'x.jpg');
    const { last } = await readAttachment(gate, reviewer.key, id, hash);
    const metadata = last.metadata as Array<{ kind: string; text: string }>;
    expect(metadata.map((m) => m.kind)).toEqual(expect.arrayContaining(['exif', 'gps', 'xmp', 'comment', 'icc']));
    expect(metadata.find((m) => m.kind === 'gps')!.text).toContain('GPSLatitude');
    expect(metadata.find((m) => m.kind === 'comment')!.text).toContain('12 Elm Street');
    // The token in the XMP description is masked like a secret in a claim.
    const xmp = metadata.find((m) => m.kind === 'xmp')!.text;
    expect(xmp).toContain('deploy token');
    expect(xmp).not.toContain('ghp_Zq8Zq8');
    expect(Buffer.byteLength(JSON.stringify(metadata))).toBeLessThanOrEqual(65_536);
  });

  it('an image whose chunks cannot be walked: {copy: served, prepared: false} and no content; the original stays the writer\'s', async () => {
    const broken = fixture('broken-chunk.png');
    const { id, hash } = await attach(broken, 'broken.png');
    const served = await gate.rpc(agent.key, 'gv.attachment', { artifact_id: id, content_hash: hash });
    expect(served.result).toEqual({ content_hash: hash, media_type: 'image/png', name: 'bro…(3 more).png', copy: 'served', prepared: false });
    expect((await readAttachment(gate, agent.key, id, hash, true)).bytes.equals(broken)).toBe(true);
  });

  it('a decompression bomb (100,000 x 100,000 declared) is refused by the pixel limit and never stored', async () => {
    const bomb = fixture('pixel-bomb.png');
    const answer = await upload(gate, agent.key, bomb);
    expect(answer.error).toMatchObject({ code: -32602, data: { reason: 'pixel_limit' } });
    expect(answer.error!.message).toContain('100000 x 100000');
    expect((await gate.rpc(agent.key, 'gv.upload', { sha256: sha256Of(bomb), size_bytes: bomb.length })).result).toMatchObject({ received: 0, complete: false });
  });
});
