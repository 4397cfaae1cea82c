/**
 * Reads a password from the terminal without echo: raw mode, so the terminal shows
 * nothing typed; backspace edits, Ctrl-C aborts.
 */
export function promptPassword(prompt: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WritableStream = process.stderr): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!input.isTTY) {
      reject(new Error('no terminal to ask for the password on: pipe it with --password-stdin'));
      return;
    }
    // Echo goes off before the prompt shows, so nothing typed the moment it appears is echoed.
    input.setRawMode(true);
    output.write(prompt);
    input.resume();
    input.setEncoding('utf8');
    let typed = '';
    const finish = (error: Error | null) => {
      input.setRawMode(false);
      input.pause();
      input.removeListener('data', onData);
      output.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const c of chunk) {
        if (c === '\r' || c === '\n') return finish(null);
        if (c === '\u0003') return finish(new Error('cancelled'));
        if (c === '\u007f' || c === '\b') typed = typed.slice(0, -1);
        else if (c >= ' ') typed += c;
      }
    };
    input.on('data', onData);
  });
}

/** The whole of standard input, less one trailing newline (`--password-stdin`). */
export async function readStdinPassword(input: NodeJS.ReadStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}
