import { useEffect, useRef, useState } from 'preact/hooks';
import { findingAnchor, lineOf, outsideBody, type PlacedFinding } from './marked-body.js';

// Approving a row over what the scanner found is a second, deliberate act: the findings are
// listed by name and place, and the approval goes only once the person ticks that they read
// them and presses the button. A second press of `a` does nothing here, so no slip of the
// keyboard signs over a finding.

export function ApproveOverFindings({
  findings,
  all,
  text,
  onApprove,
  onCancel,
}: {
  /** The findings that held the row, which the person names by approving. */
  findings: readonly PlacedFinding[];
  /** Every finding, in the order the body marks them (their numbers). */
  all: readonly PlacedFinding[];
  text: string;
  onApprove: () => void;
  onCancel: () => void;
}) {
  const [read, setRead] = useState(false);
  const tick = useRef<HTMLInputElement>(null);
  useEffect(() => tick.current?.focus(), []);
  const n = findings.length;
  return (
    // Escape closes from the checkbox too, where the screen's keys do not reach (keys typed into a field stay there).
    <section class="over-findings" role="dialog" aria-label="Approve over findings" onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <h3>
        Approve over {n} finding{n === 1 ? '' : 's'}?
      </h3>
      <p>The scanner held this row for what it found. Approving promotes it to every reader as it is.</p>
      <ol>
        {findings.map((f) => {
          const number = all.indexOf(f);
          return (
            <li>
              <strong>{f.kind}</strong> ({f.severity}){f.detail ? `: ${f.detail}` : ''}{' '}
              {outsideBody(f) !== null ? (
                <span class="where">{outsideBody(f)}, characters {f.start}–{f.end}</span>
              ) : (
                <a href={`#${findingAnchor(number)}`} onClick={(e) => (e.preventDefault(), document.getElementById(findingAnchor(number))?.scrollIntoView({ block: 'center' }))}>
                  line {lineOf(text, f.start)}, characters {f.start}–{f.end}
                </a>
              )}
            </li>
          );
        })}
      </ol>
      <label>
        <input ref={tick} type="checkbox" name="read-findings" checked={read} onChange={(e) => setRead((e.currentTarget as HTMLInputElement).checked)} /> I have read {n === 1 ? 'this finding' : `these ${n} findings`} and
        approve the row over {n === 1 ? 'it' : 'them'}
      </label>{' '}
      <button type="button" class="approve-over" disabled={!read} onClick={onApprove}>
        Approve over {n === 1 ? 'the finding' : `${n} findings`}
      </button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </section>
  );
}
