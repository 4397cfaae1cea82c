import { GateProcess } from './gate-process.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once a gate armed with a failpoint has died (within 10 s). */
export async function waitForDeath(pid: number): Promise<void> {
  for (let waited = 0; alive(pid); waited += 20) {
    if (waited > 10_000) throw new Error(`gate ${pid} still alive 10 s after the failpoint`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The first line of the gate's log matching `pattern`, waited for up to 20 s: work a start does after it listens. */
export async function loggedLine(gate: GateProcess, pattern: RegExp): Promise<string> {
  for (let waited = 0; waited < 20_000; waited += 25) {
    const line = gate.stderr.find((l) => pattern.test(l));
    if (line !== undefined) return line;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the gate never logged ${pattern}:\n${gate.stderr.join('\n')}`);
}

/** The gates one test starts on a home, some armed with failpoints (GATE_FAILPOINTS), all stopped after it. */
export class GateFleet {
  private readonly started: GateProcess[] = [];

  async start(options: { home?: string; failpoints?: string } = {}): Promise<GateProcess> {
    const gate = await GateProcess.start({
      ...(options.home === undefined ? {} : { home: options.home }),
      ...(options.failpoints === undefined ? {} : { env: { GATE_FAILPOINTS: options.failpoints } }),
    });
    this.started.push(gate);
    return gate;
  }

  async stopAll(): Promise<void> {
    for (const gate of this.started.splice(0)) await gate.stop();
  }
}
