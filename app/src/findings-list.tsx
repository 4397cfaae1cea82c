import { findingAnchor, lineOf, outsideBody, type PlacedFinding } from './marked-body.js';

/** A body's findings, each a link to where MarkedBody marks it in `text` (its line). */
export function FindingsList({ findings, text, anchors }: { findings: readonly PlacedFinding[]; text: string; anchors?: string }) {
  return (
    <ol class="findings">
      {findings.map((f, n) => (
        <li class={`sev-${f.severity}`} data-kind={f.kind}>
          {f.kind} ({f.severity}){f.detail ? `: ${f.detail}` : ''}{' '}
          {outsideBody(f) !== null ? (
            <span class="where">{outsideBody(f)}</span>
          ) : f.start < text.length ? (
            <a href={`#${findingAnchor(n, anchors)}`} onClick={(e) => (e.preventDefault(), document.getElementById(findingAnchor(n, anchors))?.scrollIntoView({ block: 'center' }))}>
              line {lineOf(text, f.start)}
            </a>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
