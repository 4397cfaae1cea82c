import { useState } from 'preact/hooks';
import { Problem } from './problem.js';
import { rpc } from './rpc.js';
import type { VerbAnswer } from '../../src/verbs/verb-types.js';

// A row's attachments as the gate serves them (the served copy: images re-encoded, metadata
// stripped), read page by page through gv.attachment. A promoting signature counts only from
// someone served every attachment to its end, so reading one here is reading it for that rule.

interface Read {
  media_type: string;
  name: string | null;
  bytes: Uint8Array;
  prepared: boolean;
}

const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const toBase64 = (bytes: Uint8Array) => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
};

async function readWhole(artifactId: string, hash: string): Promise<Read> {
  const parts: Uint8Array[] = [];
  let offset: number | null = 0;
  let head: { media_type: string; name: string | null } | null = null;
  while (offset !== null) {
    const page: VerbAnswer<'gv.attachment'> = await rpc('gv.attachment', { artifact_id: artifactId, content_hash: hash, offset });
    if ('prepared' in page) return { media_type: page.media_type, name: page.name, bytes: new Uint8Array(), prepared: false };
    parts.push(fromBase64(page.content));
    offset = page.next_offset;
    head ??= page;
  }
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) bytes.set(p, (at += p.length) - p.length);
  return { media_type: head!.media_type, name: head!.name, bytes, prepared: true };
}

export function Attachments({ artifactId, hashes, onAllRead }: { artifactId: string; hashes: string[]; onAllRead: (all: boolean) => void }) {
  const [reads, setReads] = useState<Record<string, Read>>({});
  const [error, setError] = useState<unknown>(null);
  const open = async (hash: string) => {
    try {
      const read = await readWhole(artifactId, hash);
      const next = { ...reads, [hash]: read };
      setReads(next);
      onAllRead(hashes.every((h) => next[h] !== undefined));
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <h3>Attachments</h3>
      <Problem error={error} />
      <ul class="attachments">
        {hashes.map((h) => {
          const r = reads[h];
          return (
            <li data-hash={h}>
              <span class="id">{h.slice(0, 20)}</span>{' '}
              {r === undefined ? (
                <button type="button" onClick={() => void open(h)}>
                  Read
                </button>
              ) : (
                <>
                  {r.name ?? ''} <span class="hint">{r.media_type}, {r.bytes.length} bytes, read to its end</span>
                  {!r.prepared ? (
                    <p class="hint">The gate could not prepare a served copy of this image.</p>
                  ) : r.media_type.startsWith('image/') ? (
                    <img alt={r.name ?? 'attachment'} src={`data:${r.media_type};base64,${toBase64(r.bytes)}`} />
                  ) : r.media_type.startsWith('text/') || r.media_type === 'application/json' ? (
                    <pre class="body attachment-text">{new TextDecoder().decode(r.bytes)}</pre>
                  ) : null}
                </>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}
