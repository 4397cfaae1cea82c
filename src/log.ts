import { pino, type Logger } from 'pino';
import { terminalLine } from './log-terminal.js';
import { LOG_LEVELS, type LogFormat, type LogLevel } from './log-levels.js';

/**
 * The gate's operational log: structured lines on stderr, never a claim's content, a
 * credential or an email in clear. pino writes JSON through an asynchronous destination,
 * so a line costs the main thread a serialization and a buffer append, not a write(2);
 * a level that is off costs a call to a no-op.
 */

/** Fields of a structured line: flat and scalar, so every line greps and parses alike. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Log {
  error(message: string, error?: unknown, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** Whether a line at `level` would be written: callers gathering fields for it ask first. */
  enabled(level: LogLevel): boolean;
  /** Writes what the asynchronous destination still holds (before an exit the gate chooses). */
  flush(): void;
  /** Whether a person reads the lines at a terminal (the `pretty` format): a line stdout already says is left to debug there. */
  readonly forPerson?: boolean;
}

export interface LogOptions {
  level?: LogLevel;
  format?: LogFormat;
}

/**
 * `stream` replaces stderr (tests); `auto` is JSON unless the log's stream is a terminal,
 * where a person reads it.
 */
export function createLog(options: LogOptions = {}, stream?: NodeJS.WritableStream): Log {
  const level = options.level ?? 'info';
  const target = stream ?? process.stderr;
  const isTerminal = (target as { isTTY?: boolean }).isTTY === true;
  const pretty = options.format === 'pretty' || (options.format !== 'json' && isTerminal);
  const destination =
    stream === undefined && !pretty
      ? pino.destination({ dest: 2, sync: false })
      : { write: (line: string) => target.write(pretty ? terminalLine(line) : line) };
  const logger = pino(
    {
      level,
      // No pid or hostname on every line: one gate per home, and the collector knows the host.
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return { ...wrap(logger), forPerson: pretty };
}

function wrap(logger: Logger): Log {
  // The level is fixed for the process: answered from a set, since pino's isLevelEnabled showed in ingest profiles.
  const on = new Set(LOG_LEVELS.filter((level) => logger.isLevelEnabled(level)));
  return {
    error: (message, error, fields) => {
      if (error === undefined) logger.error(fields ?? {}, message);
      else logger.error({ ...fields, err: error instanceof Error ? error : new Error(String(error)) }, message);
    },
    warn: (message, fields) => (fields === undefined ? logger.warn(message) : logger.warn(fields, message)),
    info: (message, fields) => (fields === undefined ? logger.info(message) : logger.info(fields, message)),
    debug: (message, fields) => (fields === undefined ? logger.debug(message) : logger.debug(fields, message)),
    enabled: (level) => on.has(level),
    flush: () => {
      const stream = (logger as unknown as { [key: symbol]: unknown })[pino.symbols.streamSym] as { flushSync?: () => void };
      try {
        stream.flushSync?.();
      } catch {
        // A destination not yet open (nothing written) has nothing to flush.
      }
    },
  };
}
