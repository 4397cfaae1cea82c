import { serve } from '../server.js';

/**
 * Longest a shutdown may take before the process is ended anyway: past the drain's own
 * deadline (20 s for requests in flight), with room to close the pools and the database.
 */
export const SHUTDOWN_DEADLINE_MS = 30_000;

/**
 * The start's one line on stdout, which scripts read up to `deployment ID`: the address,
 * the socket, the deployment id and the home, then where to go next (the socket's
 * `gate call`, with --home when the start was given one, and the console).
 */
export function startLine(
  running: { url: string; publicUrl?: string | null; socketPath: string; home: string; gate: { deployment: { deploymentId: string } } },
  homeFlag: boolean,
): string {
  const ping = `gate call gv.ping${homeFlag ? ` --home ${running.home}` : ''}`;
  // The console's link is where people reach the gate: its public URL when one is set.
  const open = running.publicUrl ?? running.url;
  return `gate listening on ${running.url} socket ${running.socketPath} deployment ${running.gate.deployment.deploymentId} home ${running.home}; next: ${ping}, or open ${open}/app\n`;
}

export async function serveCommand(options: { home?: string; port?: number; host?: string; logLevel?: string; takeover?: boolean }): Promise<void> {
  let running;
  try {
    const { logLevel, ...rest } = options;
    running = await serve({ ...rest, ...(logLevel === undefined ? {} : { settings: { 'log.level': logLevel } }) });
  } catch (error) {
    process.stderr.write(`gate serve: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const served = running;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      // A second signal does not cut the close short (a process killed mid-close leaves its lock); the deadline bounds it.
      served.gate.log.warn(`${signal} while shutting down: still ${served.shutdownStep() ?? 'starting the shutdown'}; the process ends by ${SHUTDOWN_DEADLINE_MS} ms after the first signal`);
      return;
    }
    stopping = true;
    // Ref'd on purpose. It holds the event loop through every awaited step: a step that
    // waits only on an unref'd handle (a thread's exit) would otherwise let Node end the
    // process with code 0 before the lock is released. And it bounds a step that never ends.
    setTimeout(() => {
      served.gate.log.error(`shutdown (${signal}) did not finish within ${SHUTDOWN_DEADLINE_MS} ms: still ${served.shutdownStep()}; the home is released and the process exits with 1`);
      served.releaseHome();
      served.gate.log.flush();
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    served
      .shutdown(signal)
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        process.stderr.write(`gate serve: shutdown failed: ${String(error)}\n`);
        served.releaseHome();
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Said once the signals are ours: a write to a pipe is synchronous on Linux, so a supervisor
  // reading this line could signal before the next statement ran, and Node's default would end
  // the process unclosed (seen: a bench's SIGTERM right after the line, about one start in 16).
  process.stdout.write(startLine(served, options.home !== undefined));
}
