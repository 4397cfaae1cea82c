import { useEffect, useState } from 'preact/hooks';
import { lineDiff } from './line-diff.js';
import { rpc } from './rpc.js';
import type { VerbAnswer } from '../../src/verbs/verb-types.js';

/** A superseding row beside the row it replaces, line by line. The parent is read as the caller may read it. */
export function SupersessionDiff({ parentId, childText }: { parentId: string; childText: string }) {
  const [parent, setParent] = useState<string | null>(null);
  const [why, setWhy] = useState<string | null>(null);
  useEffect(() => {
    void (async () => {
      try {
        let text = '';
        let offset: number | null = 0;
        while (offset !== null) {
          const page: VerbAnswer<'gv.node'> = await rpc('gv.node', { artifact_id: parentId, body: true, ...(offset > 0 ? { offset } : {}) });
          if (typeof page.body === 'string') {
            text = page.body;
            break;
          }
          text += page.masked_body ?? '';
          offset = page.masked_next_offset ?? null;
        }
        setParent(text);
      } catch (e) {
        setWhy(e instanceof Error ? e.message : String(e));
      }
    })();
  }, [parentId]);
  if (why !== null) return <p class="hint">The parent's body is not served to you: {why}</p>;
  if (parent === null) return <p>Loading the parent…</p>;
  const rows = lineDiff(parent, childText);
  return (
    <table class="diff" aria-label="Changes against the parent">
      <thead>
        <tr>
          <th>parent {parentId.slice(0, 16)}</th>
          <th>this row</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr class={r.change}>
            <td>{r.left ?? ''}</td>
            <td>{r.right ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
