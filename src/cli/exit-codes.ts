/**
 * What a socket command's exit status says, so a script can tell a refusal from a typo
 * from a gate that is not running from one that is busy past the deadline.
 */
export const EXIT = {
  result: 0,
  errorObject: 1,
  noGate: 2,
  badArgument: 3,
  noAnswerInTime: 4,
} as const;

export const EXIT_CODES_HELP = 'Exit 0 on a result, 1 on an error object, 2 when no gate answers, 3 on a bad argument, 4 when the gate gave no answer within --timeout.';

/**
 * Writes the text and exits once it is flushed: process.exit right after a write cuts a
 * piped answer at the pipe's buffer (64 KiB), so the exit waits for the write to finish.
 */
export function exitAfterWriting(stream: NodeJS.WriteStream, text: string, code: number): void {
  stream.write(text, () => process.exit(code));
}
