import { connect, type Socket } from 'node:net';

/**
 * A raw POST on its own loopback connection that sends its head and the first bytes of its
 * body, then nothing more until told: the client that stalls or trickles. `answered` is the
 * status of the first answer (null when the connection closed without one), `closed` the ms
 * from sending until the gate closed the connection.
 */
export interface StalledRequest {
  answered: Promise<number | null>;
  /** What the gate sent so far (the answer's head and body), as text. */
  seen: () => string;
  closed: Promise<number>;
  /** Writes more of the body; false when the connection was already gone. */
  send: (text: string) => boolean;
  /** Socket errors seen (EPIPE, ECONNRESET...): a client that saw one may never have read the answer. */
  errors: () => string[];
  destroy: () => void;
}

export function stalledPost(baseUrl: string, path: string, headers: Record<string, string>, declaredLength: number, firstBytes: string): StalledRequest {
  const url = new URL(baseUrl);
  const socket: Socket = connect(Number(url.port), url.hostname);
  const t0 = performance.now();
  const head = [`POST ${path} HTTP/1.1`, `Host: ${url.host}`, 'Content-Type: application/json', `Content-Length: ${declaredLength}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.write(`${head.join('\r\n')}\r\n\r\n${firstBytes}`);
  const errors: string[] = [];
  socket.on('error', (e: NodeJS.ErrnoException) => errors.push(e.code ?? e.message));
  let seen = '';
  const answered = new Promise<number | null>((resolve) => {
    socket.on('data', (d: Buffer) => {
      seen += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    socket.on('close', () => resolve(null));
  });
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now() - t0)));
  return {
    answered,
    seen: () => seen,
    closed,
    send: (text) => {
      if (socket.destroyed || !socket.writable) return false;
      socket.write(text);
      return true;
    },
    errors: () => [...errors],
    destroy: () => socket.destroy(),
  };
}

/**
 * A stalled request of a credential whose requests in flight are bounded to one
 * (server.max_in_flight_per_credential = 1), once it holds that place: `start` makes it, and
 * `probe` (another request of the same credential) is sent, one after another, until the gate
 * refuses one 429, which it does once it has read the stalled request's head. A probe that
 * held the place as that head came makes the stalled request the refused one (429): it is made
 * again. Answers the stalled request and the last probe's status, which is not 429 when the
 * stalled request was answered otherwise (cut for time) before any probe was refused.
 */
export async function holdingTheOnePlace(start: () => StalledRequest, probe: () => Promise<number>): Promise<{ held: StalledRequest; status: number }> {
  for (;;) {
    const held = start();
    let answered: number | null | undefined;
    void held.answered.then((s) => (answered = s));
    let status: number;
    do status = await probe();
    while (status !== 429 && answered === undefined);
    if (answered !== 429) return { held, status };
    held.destroy();
    await held.closed;
  }
}

/** Every letter-case spelling of the bearer scheme (RFC 7235: case-insensitive), 64 of them. */
export const bearerSpellings = (): string[] =>
  Array.from({ length: 64 }, (_, n) => [...'bearer'].map((c, i) => ((n >> i) & 1 ? c.toUpperCase() : c)).join(''));
