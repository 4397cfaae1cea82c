import { useState } from 'preact/hooks';

// The less frequent things a reviewer does to a row: hide a promoted row from readers (or
// lift a hide), and relate it to another row. Each asks its words before it calls.

const RELATIONS = ['supersedes', 'restates', 'corrects', 'contradicts', 'extends'];

export function RowTools({ state, act, id }: { state: string; id: string; act: (say: string, verb: string, params: Record<string, unknown>) => void }) {
  const [reason, setReason] = useState('');
  const [kind, setKind] = useState('extends');
  const [parent, setParent] = useState('');
  return (
    <details class="row-tools">
      <summary>More: hide, relate</summary>
      {state === 'ACTIVE' && (
        <form
          class="inline-form"
          aria-label="Hide"
          onSubmit={(e) => {
            e.preventDefault();
            act('Hidden from readers.', 'gv.hide', { artifact_id: id, reason });
          }}
        >
          <label>
            Why hide it <input name="hide-reason" required value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
          </label>{' '}
          <button type="submit">Hide</button>{' '}
          <button type="button" onClick={() => act('Hide lifted.', 'gv.hide', { artifact_id: id, lift: true })}>
            Lift a hide
          </button>
        </form>
      )}
      <form
        class="inline-form"
        aria-label="Relate"
        onSubmit={(e) => {
          e.preventDefault();
          act(`Related: ${kind}.`, 'gv.relate', { artifact_id: id, kind, parent: parent.trim() });
        }}
      >
        This row{' '}
        <select name="relation" value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value)}>
          {RELATIONS.map((r) => (
            <option value={r}>{r}</option>
          ))}
        </select>{' '}
        <input name="parent" required placeholder="sha256:… of the other row" value={parent} onInput={(e) => setParent((e.target as HTMLInputElement).value)} />{' '}
        <button type="submit">Relate</button>
      </form>
    </details>
  );
}
