/**
 * One JSON log line as a person at a terminal reads it: time, level, message, then the
 * fields as key=value. Used only when the log goes to a terminal (or `[log] format =
 * "pretty"`), where a line's cost does not matter and pino-pretty's dependencies would.
 */
export function terminalLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { time, level, msg, err, ...fields } = entry;
  const clock = typeof time === 'string' ? time.slice(11, 23) : '';
  const parts = [clock, String(level ?? '').toUpperCase().padEnd(5), String(msg ?? '')];
  for (const [key, value] of Object.entries(fields)) parts.push(`${key}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value)}`);
  const stack = typeof err === 'object' && err !== null ? (err as { stack?: unknown }).stack : undefined;
  return `${parts.join(' ')}${typeof stack === 'string' ? `\n${stack}` : ''}\n`;
}
