import type { Log } from '../../dist/src/log.js';

/**
 * A gate's log for a gate opened in the test's process (the unit gate, the in-process
 * server): each line pushed onto `lines` as `<level> <message>`, an error with its stack,
 * debug left out, so a test can read what the gate said.
 */
export function collectedLog(lines: string[]): Log {
  return {
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    debug: () => undefined,
    error: (m, e) => lines.push(`error ${m} ${e instanceof Error ? e.stack : ''}`),
    enabled: (level) => level !== 'debug' && level !== 'trace',
    flush: () => undefined,
  };
}
