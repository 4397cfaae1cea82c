import type { ServerResponse } from 'node:http';

/**
 * How long, and how many bytes, a refused body is still read and thrown away after its
 * answer, before the connection closes. 16 MiB is four of the largest bodies any door takes
 * (mcp.max_request_bytes' default); two seconds let a 4 MiB upload finish at 2 MiB/s, and
 * every client of this loopback-only gate sends faster.
 * A sender still sending past either is cut: it is holding the gate's socket, not uploading.
 */
export const LINGER_BYTES = 16 * 1024 * 1024;
export const LINGER_MS = 2_000;

/** Whether the connection ends with this answer: the client asked for it, or the answer says so. */
function closesAfter(res: ServerResponse): boolean {
  return !res.shouldKeepAlive || /\bclose\b/i.test(String(res.getHeader('connection') ?? ''));
}

/**
 * Ends an answer whose request body may not have been read (a refusal sent before or while
 * reading it). On a connection that closes after the answer, Node would drop the socket at
 * once under a client still sending its body: the client gets a broken pipe or a reset, and
 * may never read the answer, which it cannot tell from a gate that fell over. So the answer
 * is written at once, the rest of the body is read and discarded (within LINGER_BYTES and
 * LINGER_MS), and only then does the answer end and the connection close.
 *
 * On a connection kept alive Node itself reads and discards an unread body after the answer,
 * so there the answer simply ends.
 */
export function endAnswer(res: ServerResponse, data?: string | Buffer): void {
  const req = res.req;
  if (req === undefined || req.complete || req.readableEnded || req.destroyed || !closesAfter(res)) {
    res.end(data);
    return;
  }
  if (data !== undefined) res.write(data);
  let discarded = 0;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', end);
    req.off('error', end);
    req.off('close', end);
    res.end();
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) end();
  };
  const timer = setTimeout(end, LINGER_MS);
  timer.unref();
  req.on('data', onData);
  req.on('end', end);
  req.on('error', end);
  req.on('close', end);
  req.resume();
}
