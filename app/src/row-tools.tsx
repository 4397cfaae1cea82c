import { useState } from 'preact/hooks';
import { rpc } from './rpc.js';
import { RELATION_KINDS, type RelationKind } from '../../src/projections/relation-reads.js';

// The less frequent things a reviewer does to a row: hide a promoted row from readers, or from
// one audience a reader may name (gv.recall's audience), or lift that hide; and relate it to
// another row. Each asks its words before it calls.

export function RowTools({ state, act, id }: { state: string; id: string; act: (say: string, call: () => Promise<unknown>) => void }) {
  const [reason, setReason] = useState('');
  const [audience, setAudience] = useState('all');
  const [kind, setKind] = useState<RelationKind>('extends');
  const [parent, setParent] = useState('');
  const who = audience.trim();
  const everyone = who === '' || who === 'all';
  return (
    <details class="row-tools">
      <summary>More: hide, relate</summary>
      {state === 'ACTIVE' && (
        <form
          class="inline-form"
          aria-label="Hide"
          onSubmit={(e) => {
            e.preventDefault();
            act(everyone ? 'Hidden from readers.' : `Hidden from the audience ${who}.`, () => rpc('gv.hide', { artifact_id: id, reason, ...(everyone ? {} : { audience: who }) }));
          }}
        >
          <label>
            From{' '}
            <input
              name="hide-audience"
              required
              pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}"
              title="all, or an audience name (letters, digits, . _ -)"
              value={audience}
              onInput={(e) => setAudience((e.target as HTMLInputElement).value)}
            />
          </label>{' '}
          <label>
            Why hide it <input name="hide-reason" required value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
          </label>{' '}
          <button type="submit">Hide</button>{' '}
          <button type="button" onClick={() => act(everyone ? 'Hide lifted.' : `Hide lifted for the audience ${who}.`, () => rpc('gv.hide', { artifact_id: id, lift: true, ...(everyone ? {} : { audience: who }) }))}>
            Lift a hide
          </button>
          <span class="hint"> (all: every reader; a name: readers recalling for that audience)</span>
        </form>
      )}
      <form
        class="inline-form"
        aria-label="Relate"
        onSubmit={(e) => {
          e.preventDefault();
          act(`Related: ${kind}.`, () => rpc('gv.relate', { artifact_id: id, kind, parent: parent.trim() }));
        }}
      >
        This row{' '}
        <select name="relation" value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value as RelationKind)}>
          {RELATION_KINDS.map((r) => (
            <option value={r}>{r}</option>
          ))}
        </select>{' '}
        <input name="parent" required placeholder="sha256:… of the other row" value={parent} onInput={(e) => setParent((e.target as HTMLInputElement).value)} />{' '}
        <button type="submit">Relate</button>
      </form>
    </details>
  );
}
