/**
 * Executable-content findings. Severity comes from two facts: what the claim is for
 * (executable-stakes.ts) and whether the command is shown or given (command-context.ts).
 *
 *                          given          shown (documented, warned against)
 *   acted on (skill, …)    high           medium   -- a skill's code blocks are run, so
 *                                                     a command in one is always held
 *   read (memory, …)       medium         low
 *
 * A reverse shell is high wherever it is given: no knowledge claim needs a working one.
 */
import type { Finding, Severity } from './finding.js';
import { commandContext } from './command-context.js';
import { EXECUTABLE_RULES, FETCH_TO_FILE, PASSED, VERIFIES, type ExecutableRule } from './executable-patterns.js';
import { stakesOf, type Stakes } from './executable-stakes.js';
import { cueGate } from './literal-cues.js';
import { maskExcerpt } from './mask.js';

type Hit = CommandHit & { kind: ExecutableRule['kind'] };

const GIVEN: Record<Stakes, Severity> = { 'acted-on': 'high', read: 'medium' };
const SHOWN: Record<Stakes, Severity> = { 'acted-on': 'medium', read: 'low' };

// Cheap gate before the regular expressions: every rule needs one of these words.
const MAY_EXECUTE = /curl|wget|iwr|irm|invoke-|download|base64|openssl|xxd|exec|eval|powershell|pwsh|\/dev\/(?:tcp|udp)|\bnc\b|ncat|netcat|mkfifo|socket/i;
// Its words, read in the scan's one pass over the text (literal-cues.ts).
const MAY_EXECUTE_GATE = cueGate([
  'curl', 'wget', 'iwr', 'irm', 'invoke-', 'download', 'base64', 'openssl', 'xxd', 'exec', 'eval', 'powershell', 'pwsh',
  '/dev/tcp', '/dev/udp', '\\bnc\\b', 'ncat', 'netcat', 'mkfifo', 'socket',
], [MAY_EXECUTE]);

// How far after a download the scanner looks for the downloaded file being run.
const RUN_WINDOW = 400;

// What comes right before a file's name when the file is run: an interpreter given it, the
// shell's `.`/source (where a command starts: `jq . data.json` reads the file as data), or a
// path to it (`./x.sh`, `/tmp/x.sh`).
// A path is read from its first word only, or where the program's name starts (as
// SHELL_AT_WORD in executable-patterns.ts): from every word of `a/a/a/…` it was read to its end.
const RUN_PREFIX =
  /(?:\b(?:(?<![\w./-])|(?<=(?:^|[^\w./-])[./-]+)|(?=sudo[ \t]|(?:sh|bash|zsh|dash|ksh|source|python[23]?(?:\.\d+)?|perl|ruby|node|php|pwsh|powershell)[ \t]))(?:sudo[ \t]+)?(?:[\w./-]*\/)?(?:sh|bash|zsh|dash|ksh|source|python[23]?(?:\.\d+)?|perl|ruby|node|php|pwsh|powershell)[ \t]+(?:-[\w-]+[ \t]+)*["']?(?:[\w.~$/-]*\/)?|(?:^|[;&|(\x60])[ \t]*\.[ \t]+(?:[\w.~$/-]*\/)?|(?:^|[\s;&|(])(?:\.|~|[\w.$-]*)?\/(?:[\w.$-]+\/)*)$/;
const NAME_CHAR = /[\w.-]/;

/** Where in `after` the file is first run, or null: `sh x.sh`, `. x.sh`, `./x.sh`. */
function firstRun(after: string, file: string): { start: number; end: number } | null {
  for (let at = after.indexOf(file); at !== -1; at = after.indexOf(file, at + 1)) {
    const next = after[at + file.length];
    if (next !== undefined && NAME_CHAR.test(next)) continue;
    const line = after.slice(after.lastIndexOf('\n', at - 1) + 1, at);
    const prefix = RUN_PREFIX.exec(line);
    if (prefix) return { start: at - prefix[0].length, end: at + file.length };
  }
  return null;
}

/** `curl -o x.sh URL && sh x.sh` with no checksum or signature check between the two. */
function downloadThenRun(text: string): Hit[] {
  const hits: Hit[] = [];
  for (const m of text.matchAll(FETCH_TO_FILE)) {
    if (m.groups?.[PASSED] !== undefined) continue;
    const file = m[1]!.split('/').at(-1)!;
    if (file === '-' || file === '') continue;
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + RUN_WINDOW);
    const ran = firstRun(after, file);
    if (!ran || VERIFIES.test(after.slice(0, ran.start))) continue;
    hits.push({
      kind: 'executable.download-execute',
      detail: 'A file downloaded and then run with no checksum or signature check between.',
      start: m.index,
      end: m.index + m[0].length + ran.end,
    });
  }
  return hits;
}

export function findExecutables(text: string, contentType?: string): Finding[] {
  if (!MAY_EXECUTE_GATE.mayOccurIn(text) || !MAY_EXECUTE.test(text)) return [];
  const hits: Hit[] = [];
  for (const rule of EXECUTABLE_RULES) {
    for (const m of text.matchAll(rule.pattern)) {
      if (m.groups?.[PASSED] !== undefined) continue;
      const span = m[0].trimEnd();
      if (span.length > 0) hits.push({ kind: rule.kind, detail: rule.detail, start: m.index, end: m.index + span.length });
    }
  }
  // One at a time: spread, 100,000 hits or more would overflow the stack.
  for (const hit of downloadThenRun(text)) hits.push(hit);
  if (hits.length === 0) return [];

  return judgeCommands(text, contentType, hits);
}

/** A command found in `text`, to be weighed by what the row is for and how the command is put. */
export interface CommandHit {
  kind: string;
  detail: string;
  start: number;
  end: number;
}

/** Severity from the row's stakes and whether each command is shown or given (the table above). */
export function judgeCommands(text: string, contentType: string | undefined, hits: readonly CommandHit[]): Finding[] {
  if (hits.length === 0) return [];
  const stakes = stakesOf(contentType);
  const context = commandContext(text);
  return hits.map((hit) => {
    const shown = context.shown(hit.start, hit.end);
    const severity: Severity = hit.kind === 'executable.reverse-shell' && !shown ? 'high' : (shown ? SHOWN : GIVEN)[stakes];
    return { kind: hit.kind, severity, detail: hit.detail, start: hit.start, end: hit.end, excerpt: maskExcerpt(text.slice(hit.start, hit.end)) };
  });
}
