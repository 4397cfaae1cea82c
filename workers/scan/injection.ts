/**
 * Prompt-injection findings: phrases and hidden markup, matched on the folded copy of the
 * text and judged in the original (quoted or discussed mentions rank lower, see
 * mention-context.ts).
 */
import type { Finding, Severity } from './finding.js';
import { foldForMatching } from './fold-for-matching.js';
import { findHiddenText } from './hidden-markup.js';
import { PHRASE_RULES, PROMPT_LIKE, SYSTEM_TAG } from './injection-phrases.js';
import { maskExcerpt } from './mask.js';
import { mentionContext } from './mention-context.js';

interface Hit {
  kind: string;
  severity: Severity;
  detail: string;
  start: number;
  end: number;
}

export function findInjections(text: string): Finding[] {
  const folded = foldForMatching(text);
  const hits: Hit[] = [];
  for (const rule of PHRASE_RULES) {
    for (const m of folded.text.matchAll(rule.pattern)) {
      if (m[0].length === 0) continue;
      hits.push({ kind: rule.kind, severity: rule.severity, detail: rule.detail, start: m.index, end: m.index + m[0].length });
    }
  }
  for (const m of folded.text.matchAll(SYSTEM_TAG)) {
    if (!PROMPT_LIKE.test(m[1]!)) continue;
    const tagEnd = m[0].indexOf('>') + 1;
    hits.push({
      kind: 'injection.role-impersonation',
      severity: 'high',
      detail: 'A fake system tag wrapping text that reads as a system prompt.',
      start: m.index,
      end: m.index + tagEnd,
    });
  }
  hits.push(...findHiddenText(folded.text));
  if (hits.length === 0) return [];

  const context = mentionContext(text);
  return hits.map((hit) => {
    const start = folded.startOf(hit.start);
    const end = folded.endOf(hit.end);
    return {
      kind: hit.kind,
      severity: context.severity(hit.severity, start, end),
      detail: hit.detail,
      start,
      end,
      excerpt: maskExcerpt(text.slice(start, end)),
    };
  });
}
