import type { Command } from 'commander';
import { EXIT } from './exit-codes.js';

/** Widest help drawn, however wide the terminal: longer lines are hard to follow back. */
const WIDEST = 100;

/**
 * The width help is wrapped to: the terminal's, else $COLUMNS (a pipe, a pager, a test),
 * else 80, and never more than WIDEST.
 */
export function helpWidth(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): number {
  const columns = stream.isTTY ? stream.columns : Number(env['COLUMNS']);
  return Number.isInteger(columns) && columns >= 40 ? Math.min(columns, WIDEST) : 80;
}

/**
 * commander's "(Did you mean sign?)" on a line of its own, as one sentence with the error:
 * `error: unknown command 'sgin'. Did you mean 'sign'?`
 */
export function suggestionInline(text: string): string {
  return text.replace(/^(error: unknown (?:command|option) '[^']+')\n\(Did you mean ([^?\n]+)\?\)/, "$1. Did you mean '$2'?");
}

/**
 * What every command of the tree shares, set on each (a command added with addCommand
 * does not inherit): help wrapped to helpWidth; the command list shows each command's
 * summary (its description when it has none) after its name and arguments, without
 * "[options]", so a summary fits one line of 80 columns; an error is followed by a pointer
 * to the command's --help, not the whole help; a mistyped command, an unknown option or a
 * bad argument exits 3 (bad argument, as the socket commands do), not commander's 1.
 */
export function polishHelp(command: Command, path: string = command.name()): void {
  command
    .configureOutput({
      getOutHelpWidth: () => helpWidth(process.stdout),
      getErrHelpWidth: () => helpWidth(process.stderr),
      outputError: (text, write) => write(suggestionInline(text)),
    })
    .configureHelp({
      subcommandTerm: (sub) =>
        [sub.name(), ...sub.registeredArguments.map((a) => {
          const name = `${a.name()}${a.variadic ? '...' : ''}`;
          return a.required ? `<${name}>` : `[${name}]`;
        })].join(' '),
    })
    .showHelpAfterError(`(${path} --help shows its usage)`)
    .exitOverride((error) => {
      // Help, the version and a command named with no subcommand keep commander's own status.
      const usage = error.exitCode !== 0 && error.code !== 'commander.help' && error.code !== 'commander.helpDisplayed';
      process.exit(usage ? EXIT.badArgument : error.exitCode);
    });
  for (const sub of command.commands) polishHelp(sub, `${path} ${sub.name()}`);
}
