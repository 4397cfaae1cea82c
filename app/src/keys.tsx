import { useEffect, useRef } from 'preact/hooks';

export interface Key {
  key: string;
  does: string;
  run: () => void;
}

/** Keys typed into a field belong to the field, not to the screen. */
const typing = (e: KeyboardEvent) => {
  const t = e.target as HTMLElement | null;
  return t !== null && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
};

/** Binds a screen's keys while it is shown; the latest closures always run. */
export function useKeys(keys: Key[]): void {
  const current = useRef(keys);
  current.current = keys;
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e)) return;
      const k = current.current.find((x) => x.key === e.key);
      if (k === undefined) return;
      e.preventDefault();
      k.run();
    };
    addEventListener('keydown', on);
    return () => removeEventListener('keydown', on);
  }, []);
}

const label = (key: string) => (key === 'Enter' ? 'Enter' : key === 'Escape' ? 'Esc' : key);

export function KeyHelp({ keys, onClose }: { keys: Key[]; onClose: () => void }) {
  return (
    <div class="help" role="dialog" aria-label="Keyboard">
      <h2>Keys</h2>
      <dl>
        {keys.map((k) => (
          <>
            <dt>
              <kbd>{label(k.key)}</kbd>
            </dt>
            <dd>{k.does}</dd>
          </>
        ))}
      </dl>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
