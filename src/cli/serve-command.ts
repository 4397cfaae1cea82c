import { serve } from '../server.js';

export async function serveCommand(options: { home?: string; port?: number; logLevel?: string }): Promise<void> {
  let running;
  try {
    const { logLevel, ...rest } = options;
    running = await serve({ ...rest, ...(logLevel === undefined ? {} : { settings: { 'log.level': logLevel } }) });
  } catch (error) {
    process.stderr.write(`gate serve: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  process.stdout.write(`gate listening on ${running.url} socket ${running.socketPath} deployment ${running.gate.deploymentId}\n`);
  const stop = (signal: string) => {
    running
      .shutdown(signal)
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        process.stderr.write(`gate serve: shutdown failed: ${String(error)}\n`);
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
