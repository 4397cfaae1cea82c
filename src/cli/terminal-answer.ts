import { createInterface } from 'node:readline';

/** One line of an answer from stdin (a terminal, or a pipe a script answers through), trimmed; null when none comes. */
export function answer(question: string): Promise<string | null> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  process.stderr.write(question);
  return new Promise((resolve) => {
    rl.once('line', (line) => {
      // Settled before closing: close emits 'close' at once, which settles null.
      resolve(line.trim());
      rl.close();
    });
    rl.once('close', () => resolve(null));
  });
}

/** A yes or a no; no answer at all is a no. */
export const confirm = async (question: string): Promise<boolean> => /^y(es)?$/i.test((await answer(question)) ?? '');
