import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peerCredentials, processUid, type PeerCredentials } from '../../src/auth/peer-credentials.js';

const NOBODY = 65534;

/** Resolves with the credentials the server side reads off the next connection it accepts. */
function nextPeer(server: Server): Promise<PeerCredentials> {
  return new Promise((resolve, reject) => {
    server.once('connection', (conn: Socket) => {
      try {
        resolve(peerCredentials(conn));
      } catch (error) {
        reject(error);
      } finally {
        // Drain what the client sends so the socket sees its end and closes; otherwise
        // server.close() in afterAll would wait on it forever.
        conn.on('error', () => {});
        conn.resume();
        conn.end();
      }
    });
  });
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('peer credentials of a Unix-socket connection (SO_PEERCRED)', () => {
  let dir: string;
  let socketPath: string;
  let server: Server;

  beforeAll(async () => {
    // Under os.tmpdir() and world-traversable, so the child running as nobody can reach the socket.
    dir = mkdtempSync(join(tmpdir(), 'gate-peercred-'));
    chmodSync(dir, 0o755);
    socketPath = join(dir, 'gate.sock');
    server = createServer();
    await listen(server, socketPath);
    chmodSync(socketPath, 0o777);
  });

  afterAll(async () => {
    if (server) await close(server);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reports this process when it connects to itself', async () => {
    const seen = nextPeer(server);
    const client = connect(socketPath);
    client.on('error', () => {});
    try {
      const creds = await seen;
      expect(creds.uid).toBe(process.getuid!());
      expect(creds.uid).toBe(processUid());
      expect(creds.gid).toBe(process.getgid!());
      expect(creds.pid).toBe(process.pid);
    } finally {
      client.destroy();
    }
  });

  it('reports another account and its pid when a child running as nobody connects', async () => {
    // The check is only meaningful if nobody differs from us; the suite runs as root in CI.
    expect(processUid()).not.toBe(NOBODY);
    const script = [
      "const net = require('node:net');",
      'const c = net.connect(process.argv[1], () => c.end("hello\\n"));',
      'c.on("error", (e) => { console.error(e.message); process.exit(2); });',
      'c.on("data", () => {});',
    ].join('\n');
    const seen = nextPeer(server);
    const child = spawn(
      '/usr/bin/setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', '/usr/bin/node', '-e', script, socketPath],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => resolve(code));
    });
    // If the child fails before connecting, fail with its stderr rather than time out.
    const creds = await Promise.race([
      seen,
      exited.then((code) => {
        throw new Error(`child exited (${code}) before connecting: ${stderr}`);
      }),
    ]);
    expect(creds.uid).toBe(NOBODY);
    expect(creds.gid).toBe(NOBODY);
    // setpriv execs node in place, so the connecting process keeps the pid spawn saw.
    expect(creds.pid).toBe(child.pid);
    expect(await exited, stderr).toBe(0);
  });

  it('refuses a TCP connection with a clear error', async () => {
    const tcp = createServer();
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const port = (tcp.address() as { port: number }).port;
    const accepted = new Promise<Socket>((resolve) => tcp.once('connection', resolve));
    const client = connect(port, '127.0.0.1');
    client.on('error', () => {});
    const conn = await accepted;
    try {
      // The kernel does not fail SO_PEERCRED on a TCP fd (it answers uid 4294967295), so
      // the module must turn such a socket away itself.
      expect(() => peerCredentials(conn)).toThrow('peer credentials need a Unix-socket connection');
      expect(() => peerCredentials(client)).toThrow('peer credentials need a Unix-socket connection');
    } finally {
      conn.destroy();
      client.destroy();
      await close(tcp);
    }
  });

  it('refuses a socket that is not connected', () => {
    const client = connect(join(dir, 'no-such.sock'));
    client.on('error', () => {});
    client.destroy();
    expect(() => peerCredentials(client)).toThrow('peer credentials need a Unix-socket connection');
  });
});
