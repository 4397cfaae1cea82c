/** The gate's operational log: one line per entry on stderr, never a claim's content. */
export interface Log {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export function createLog(stream: NodeJS.WritableStream = process.stderr): Log {
  const line = (level: string, message: string) => stream.write(`${new Date().toISOString()} ${level} ${message}\n`);
  return {
    info: (message) => line('info', message),
    error: (message, error) =>
      line('error', error instanceof Error ? `${message}: ${error.stack ?? error.message}` : message),
  };
}
