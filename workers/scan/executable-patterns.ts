/**
 * Commands that run code nobody reviewed: fetched from the network and run in one step
 * (download-execute), decoded from an opaque blob and run (decode-execute), or handing a
 * shell to a remote host (reverse-shell). What a reviewer approves is the text; none of
 * these shows the code that will run, which is the whole point of them.
 *
 * Deliberately out: installing packages (`pip install x`, `npm i x`), downloading a file
 * (`curl -o f URL`), an interpreter given its code inline (`python -c "print(1)"`), piping
 * data into an interpreter that runs its own program on it (`curl … | python -m json.tool`,
 * `| jq`, `| bash -c '…'`). The code those run is either named, packaged or on the page.
 */

export interface ExecutableRule {
  kind: 'executable.download-execute' | 'executable.decode-execute' | 'executable.reverse-shell';
  detail: string;
  /**
   * A match is a finding, but for one whose `passed` group took part: that is the rest of a
   * command line read past (see PASSED below), not a command found.
   */
  pattern: RegExp;
}

/**
 * Scan time stays linear in the text (docs/scanner.md, "Bounded scan time"). A pattern such
 * as `curl …` then `| sh` somewhere later on the line is tried from every `curl`, and each
 * try reads to the line's end: `curl x | curl x | …` cost time in the square of its length
 * (5 s for 64 KB). Every later start in the same pipeline reads the same rest and fails the
 * same way, so where the command is not found the pattern consumes the pipeline in its
 * `passed` group: the search goes on after it, and the finder drops that match.
 */
export const PASSED = 'passed';

const raw = String.raw;

// One command's arguments: anything to a pipe, a command separator or the line's end; a
// lone '&' (a URL's query string) and backslash-newline continuations belong to it.
const ARGS = raw`(?:[^\n|;&]|&(?!&)|\\\r?\n)*`;
// The same, a line's continuation taken first: what a pattern reads past goes on over it, as
// the pattern itself could (where ARGS stops at the backslash, being followed by nothing).
const ARGS_ON = raw`(?:\\\r?\n|[^\n|;&]|&(?!&))*`;
const STAGES = raw`(?:\|(?!\|)${ARGS})*?`;
/** What a pattern reads past, where its command was not found (a pattern holds one). */
const passed = (rest: string): string => raw`(?<${PASSED}>${rest})`;
// The whole pipeline a command starts: every stage to a separator or the line's end.
const PIPELINE = passed(raw`${ARGS_ON}(?:\|(?!\|)${ARGS_ON})*`);
// Where a command ends: the end of its line or script, a separator, a closing bracket or
// quote, a comment, a full stop in prose, or a remark in brackets after a space
// ("| bash (installs the toolchain)": no shell reads `(` there as an argument).
const END = raw`(?=[ \t]*(?:$|[\n;&|)\x60"'#]|[.,](?:\s|$))|[ \t]+\()`;

// The rest of a command's line, short of a closing backtick: a command in an inline code
// span ends where the span does.
const TAIL = raw`[^\n\x60]*`;

const PATH = raw`(?:[\w./-]*/)?`;
// A shell named at a word's start, with or without its path (`bash`, `/bin/bash`). Tried at
// the first word start of a path only, or at the shell's name itself: from every word start
// of `/k/k/k/…` the path was read to its end, in the square of its length. A match from a
// later word start of a path is also one from its first (the path takes the part between),
// unless the path is empty there, which the last case keeps.
const SHELL_AT_WORD = raw`\b(?:(?<![\w./-])|(?<=(?:^|[^\w./-])[./-]+)|(?=(?:ba|z|k|da)?sh[ \t]))${PATH}(?:ba|z|k|da)?sh`;
const AS_ROOT = raw`(?:sudo(?:[ \t]+-[\w-]+)*[ \t]+)?(?:env[ \t]+)?`;
// A shell reading its program from stdin: any options but -c (whose program is the next
// argument, the piped bytes then being data), then only arguments after `--`.
const SHELL_ON_STDIN = raw`${AS_ROOT}${PATH}(?:sh|bash|zsh|dash|ksh|fish)(?:[ \t]+-(?!c\b)[\w-]*)*(?:[ \t]+--[ \t]+[^\n|;&]*)?${END}`;
// The same for interpreters: -c, -m, -e, -E, -p, -r and --eval name the program themselves.
const INTERPRETER_ON_STDIN = raw`${AS_ROOT}${PATH}(?:python[23]?(?:\.\d+)?|perl|ruby|node|php)(?:[ \t]+-(?![cmeEpr]\b|-eval\b|-print\b)[\w-]*)*(?:[ \t]+--[ \t]+[^\n|;&]*)?${END}`;
const RUNS_STDIN = raw`(?:${SHELL_ON_STDIN}|${INTERPRETER_ON_STDIN})`;

const FETCH = raw`\b(?:curl|wget)\b`;
const PS_FETCH = raw`(?:\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget|start-bitstransfer)\b|\.download(?:string|data)\s*\()`;
const PS_RUN = raw`\b(?:iex|invoke-expression)\b`;
const SHELL_C = raw`(?:\beval|${SHELL_AT_WORD}[ \t]+-c|\bpython[23]?(?:\.\d+)?[ \t]+-c|\b(?:perl|ruby|node)[ \t]+-e)`;
const SUBSTITUTION = raw`[ \t]+["']?(?:\$\(|\x60)[ \t]*`;
// A decoder's name where a word starts that no dash joins to another: from a `base64` inside
// each option of `base64 -base64 -base64 …` the options were read to their end.
const DECODER = raw`(?:(?<![\w-])base64[ \t]+(?:-[\w-]+[ \t]+)*?(?:-d|--decode|-D)\b|(?<![\w-])openssl[ \t]+(?:base64|enc[ \t]+(?:-[\w-]+[ \t]+)*?-a)[ \t]+(?:-[\w-]+[ \t]+)*?-d\b|(?<![\w-])xxd[ \t]+(?:-[\w-]+[ \t]+)*?-r\b)`;
const CODE_DECODE = raw`(?:[\w.]*\.|__import__\(\s*['"]\w+['"]\s*\)\.)?(?:b64decode|b32decode|b16decode|a85decode|b85decode|decodebytes|decompress|unhexlify|a2b_base64|fromhex|atob|base64_decode|gzinflate|gzuncompress|str_rot13|(?:marshal|pickle)\.loads|Buffer\.from\([^()\n]*['"](?:base64|hex)['"])`;
const CODE_FETCH = raw`(?:await\s+)?(?:[\w.]*\.|__import__\(\s*['"][\w.]+['"]\s*\)\.)?(?:urlopen|(?:requests|httpx)\.get|fetch)\s*\(`;

const REVERSE_SHELL = 'A shell wired to a network connection, handing control of the machine to a remote host.';

export const EXECUTABLE_RULES: readonly ExecutableRule[] = [
  {
    kind: 'executable.download-execute',
    detail: 'A download piped straight into a shell or interpreter, so code nobody reviewed runs.',
    pattern: new RegExp(raw`${FETCH}(?:${ARGS}${STAGES}\|(?!\|)[ \t]*${RUNS_STDIN}|${PIPELINE})`, 'g'),
  },
  {
    kind: 'executable.download-execute',
    detail: 'A download run through process or command substitution, so code nobody reviewed runs.',
    pattern: new RegExp(raw`(?:${SHELL_AT_WORD}|\bsource|(?<![\w.])\.)[ \t]+<\([ \t]*${FETCH}(?:[^)\n]*\)|${passed(raw`[^)\n]*`)})`, 'g'),
  },
  {
    kind: 'executable.download-execute',
    detail: 'A download run through process or command substitution, so code nobody reviewed runs.',
    pattern: new RegExp(raw`${SHELL_C}${SUBSTITUTION}${FETCH}(?:[^)\x60\n]*[)\x60]|${passed(raw`[^)\x60\n]*`)})`, 'g'),
  },
  {
    kind: 'executable.download-execute',
    detail: 'A PowerShell download passed to Invoke-Expression, so code nobody reviewed runs.',
    pattern: new RegExp(
      // Each run of spaces read by one quantifier: `[ \t]*\(?[ \t]*\(?[ \t]*` split a run three ways.
      raw`${PS_RUN}[ \t]*(?:\([ \t]*)?(?:\([ \t]*)?(?:new-object[ \t]+(?:system\.)?net\.webclient[ \t]*(?:\)[ \t]*)?\.[ \t]*download(?:string|data)\b|(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b)${TAIL}`,
      'gi',
    ),
  },
  {
    kind: 'executable.download-execute',
    detail: 'A PowerShell download passed to Invoke-Expression, so code nobody reviewed runs.',
    pattern: new RegExp(raw`${PS_FETCH}(?:${ARGS}${STAGES}\|(?!\|)[ \t]*${PS_RUN}|${PIPELINE})`, 'gi'),
  },
  {
    kind: 'executable.download-execute',
    detail: 'Code fetched over the network and passed to exec or eval.',
    pattern: new RegExp(raw`\b(?:exec|eval)\s*\(\s*${CODE_FETCH}${TAIL}`, 'g'),
  },
  {
    kind: 'executable.decode-execute',
    detail: 'An encoded blob decoded and piped into a shell or interpreter, so the code run is not readable.',
    pattern: new RegExp(raw`${DECODER}(?:${ARGS}${STAGES}\|(?!\|)[ \t]*${RUNS_STDIN}|${PIPELINE})`, 'g'),
  },
  {
    kind: 'executable.decode-execute',
    detail: 'An encoded blob decoded inside eval or a shell -c, so the code run is not readable.',
    // The first decoder only (a lookahead read once, then consumed): every later one ends at
    // the same closing bracket, and trying each in turn cost time in the square of the line.
    pattern: new RegExp(
      raw`${SHELL_C}${SUBSTITUTION}(?:(?=(?<toDecoder>[^)\x60\n]*?${DECODER}))\k<toDecoder>[^)\x60\n]*[)\x60]|${passed(raw`[^)\x60\n]*`)})`,
      'g',
    ),
  },
  {
    kind: 'executable.decode-execute',
    detail: 'PowerShell given an encoded command, so the code run is not readable.',
    pattern: new RegExp(raw`\b(?:powershell|pwsh)(?:\.exe)?\b(?:[^\n|;]*?[ \t][-/](?:e|ec|en[a-z]*)[ \t]+["']?[A-Za-z0-9+/]{20,}={0,2}|${passed(raw`[^\n|;]*`)})`, 'gi'),
  },
  {
    kind: 'executable.decode-execute',
    detail: 'PowerShell given an encoded command, so the code run is not readable.',
    pattern: new RegExp(raw`${PS_RUN}[^\n]{0,200}?\bfrombase64string\b${TAIL}|\bfrombase64string\b[^\n]{0,300}?\|[ \t]*${PS_RUN}`, 'gi'),
  },
  {
    kind: 'executable.decode-execute',
    detail: 'An encoded blob decoded and passed to exec or eval, so the code run is not readable.',
    pattern: new RegExp(raw`\b(?:exec|eval)\s*\(\s*(?:compile\s*\(\s*)?(?:[\w.]+\.decompress\s*\(\s*)?${CODE_DECODE}\s*\(?${TAIL}`, 'g'),
  },
  {
    kind: 'executable.reverse-shell',
    detail: REVERSE_SHELL,
    pattern: new RegExp(
      [
        raw`${SHELL_AT_WORD}[ \t]+-i[ \t]*(?:[<>]&?|&>)[ \t]*/dev/(?:tcp|udp)/[^\s/]+/\d+${TAIL}`,
        raw`\bexec[ \t]+\d+<>[ \t]*/dev/(?:tcp|udp)/[^\s/]+/\d+${TAIL}`,
        raw`/dev/(?:tcp|udp)/[^\s/]+/\d+[ \t]+0>&1`,
        raw`\bsocket\.socket\([^\n]{0,300}?\bdup2\b[^\n]{0,300}?(?:/bin/(?:ba|z)?sh|pty\.spawn)${TAIL}`,
      ].join('|'),
      'g',
    ),
  },
  {
    kind: 'executable.reverse-shell',
    detail: REVERSE_SHELL,
    pattern: new RegExp(raw`\b(?:nc|ncat|netcat)\b(?:[^\n|;]*?[ \t]-[ec][ \t]+${PATH}(?:ba|z|k|da)?sh\b[^\n|;]*|${passed(raw`[^\n|;]*`)})`, 'g'),
  },
  {
    kind: 'executable.reverse-shell',
    detail: REVERSE_SHELL,
    // The first interactive shell piped to only (see the decoder rule above).
    pattern: new RegExp(
      raw`\bmkfifo\b(?:(?=(?<toShell>[^\n]*?\|[ \t]*${PATH}(?:ba|z)?sh[ \t]+-i\b))\k<toShell>[^\n]*?\|[ \t]*(?:nc|ncat|netcat)\b${TAIL}|${passed(raw`[^\n]*`)})`,
      'g',
    ),
  },
];

/** A download saved to a file (`-o`, `-O`, `--output`, or the shell's `>`), so that the next lines can be checked for running it. */
export const FETCH_TO_FILE = new RegExp(
  raw`${FETCH}(?:${ARGS}?(?:[ \t](?:-[a-zA-Z]*[oO]|--output|--output-document)(?:[ \t]+|=)|(?<![\d&])>>?[ \t]*)["']?([\w.~$/-]*[\w-][\w.-]*)["']?${ARGS}|${passed(ARGS_ON)})`,
  'g',
);

/** A checksum or signature check between downloading a file and running it. */
export const VERIFIES = /\b(?:sha(?:1|224|256|384|512)?sum|shasum|b2sum|md5sum|gpgv?[ \t]+(?:--verify|-v)|gpgv\b|cosign[ \t]+verify|minisign[ \t]+-V|get-filehash|openssl[ \t]+dgst|slsa-verifier)\b/i;
