import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { hiddenCharacters, hiddenToken } from '../../src/domain/hidden-characters.js';
import type { PlacedFinding } from '../../src/projections/artifact-reads.js';
import { isFlagging, SEVERITY_RANK, type Severity } from '../../workers/scan/finding.js';
import { whereFound } from '../../workers/scan/finding-location.js';

// A row's body as a reviewer must see it to judge it: each finding marked where the scanner
// found it, and every character that does not show itself (a text-direction override, a
// zero-width space, a control character) drawn as a visible token. A read counts only once
// the reader has scrolled the box to its end: pages served are not pages seen.

export type { PlacedFinding };

/** Text with its hidden characters drawn as `⟨U+202E⟩` tokens; the characters themselves stay out of the page. */
export function visibleText(text: string): ComponentChildren[] {
  const parts: ComponentChildren[] = [];
  let at = 0;
  for (const h of hiddenCharacters(text)) {
    if (h.index > at) parts.push(text.slice(at, h.index));
    parts.push(
      <span class="hidden-char" title={`a character that does not show itself (${h.codePoint})`}>
        {hiddenToken(h.codePoint)}
      </span>,
    );
    at = h.index + h.length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** `text` cut where findings start and end, each cut marked with the findings that cover it (their indexes). */
function pieces(text: string, findings: readonly PlacedFinding[]): Array<{ text: string; covering: number[] }> {
  const cuts = new Set<number>([0, text.length]);
  // A finding in a field or an attachment has no place in the body: it is listed, not marked.
  const inBody = (f: PlacedFinding) => f.location === undefined;
  for (const f of findings) {
    if (!inBody(f)) continue;
    if (f.start < text.length) cuts.add(Math.max(0, f.start));
    if (f.end < text.length) cuts.add(Math.max(0, f.end));
  }
  const sorted = [...cuts].sort((a, b) => a - b);
  const out: Array<{ text: string; covering: number[] }> = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const [s, e] = [sorted[i]!, sorted[i + 1]!];
    const covering = findings.flatMap((f, n) => (inBody(f) && f.start <= s && e <= f.end && f.start < f.end ? [n] : []));
    out.push({ text: text.slice(s, e), covering });
  }
  return out;
}

/** The id a finding's mark carries; `base` tells apart several bodies on one page (the org's inbox). */
export const findingAnchor = (n: number, base = 'finding') => `${base}-${n + 1}`;

/**
 * The body box. `text` is what has been served so far; `complete` whether that is all of it.
 * `onReachedEnd` is called once the reader has scrolled to the end of a complete body.
 */
export function MarkedBody({
  text,
  findings,
  complete,
  onReachedEnd,
  anchors,
}: {
  text: string;
  findings: readonly PlacedFinding[];
  complete: boolean;
  onReachedEnd: () => void;
  anchors?: string;
}) {
  const box = useRef<HTMLPreElement>(null);
  const end = useRef<HTMLSpanElement>(null);
  const reached = useRef(onReachedEnd);
  reached.current = onReachedEnd;
  useEffect(() => {
    if (!complete || box.current === null || end.current === null) return;
    const watch = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) reached.current();
    }, { root: box.current });
    watch.observe(end.current);
    return () => watch.disconnect();
  }, [complete, text]);

  // Each finding is marked at its first piece only with the anchor, so a link to it lands on its start.
  const anchored = new Set<number>();
  return (
    <pre class="body" ref={box} tabIndex={0} aria-label="Body">
      {text === '' ? '(no text)' : null}
      {pieces(text, findings).map((p) => {
        if (p.covering.length === 0) return visibleText(p.text);
        const first = p.covering.find((n) => !anchored.has(n));
        if (first !== undefined) anchored.add(first);
        const worst = p.covering.map((n) => findings[n]!).sort((a, b) => rank(b.severity) - rank(a.severity))[0]!;
        return (
          <mark
            class={`finding sev-${worst.severity}`}
            {...(first === undefined ? {} : { id: findingAnchor(first, anchors) })}
            data-findings={p.covering.map((n) => n + 1).join(' ')}
            title={p.covering.map((n) => `${n + 1}. ${findings[n]!.kind} (${findings[n]!.severity})`).join('\n')}
          >
            {visibleText(p.text)}
          </mark>
        );
      })}
      <span ref={end} class="body-end" aria-hidden="true" />
    </pre>
  );
}

const rank = (severity: string) => SEVERITY_RANK[severity as Severity] ?? 0;

/** Findings a person must name before approving over them: those that held the row (medium and above). */
export const flagging = (findings: readonly PlacedFinding[]) => findings.filter((f) => isFlagging(f.severity as Severity));

/** Where a finding is, in words a reviewer can find: its line in the body. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Where a finding outside the body is (a field, an attachment), in words; null for one in the body. */
export const outsideBody = (f: PlacedFinding): string | null => (f.location === undefined ? null : whereFound(f.location));
