// Markdown headings as GitHub links them: the anchors a page's headings make, shared by the
// documentation link test and the test that a comment's `docs/<page>.md#<anchor>` exists.

/** Each line of the text, or null for a line inside (or opening or closing) a fenced code block. */
export function linesOutsideFences(text: string): Array<string | null> {
  const out: Array<string | null> = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const opened = /^\s*(`{3,}|~{3,})/.exec(line);
    if (opened !== null) {
      if (fence === undefined) fence = opened[1]![0]!;
      else if (opened[1]![0] === fence) fence = undefined;
      out.push(null);
      continue;
    }
    out.push(fence === undefined ? line : null);
  }
  return out;
}

/** The lines outside fenced code blocks, with inline code spans blanked. */
export function proseLines(text: string): string[] {
  return linesOutsideFences(text).map((line) => (line === null ? '' : line.replace(/(`+)[\s\S]*?\1/g, (m) => ' '.repeat(m.length))));
}

/** GitHub's heading slug: markup dropped, lower case, punctuation but hyphens and underscores removed, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*`]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a markdown file's headings make, duplicates numbered -1, -2, ... as GitHub does. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of linesOutsideFences(text)) {
    if (line === null) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = slug(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}
