import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The kernel's record of the process that connected to a Unix socket (Linux SO_PEERCRED). */
export interface PeerCredentials {
  pid: number;
  uid: number;
  gid: number;
}

interface PeercredAddon {
  peerCredentials(fd: number): PeerCredentials;
}

let addon: PeercredAddon | undefined;

/**
 * This module runs both as src/auth/*.ts (vitest) and dist/src/auth/*.js (after tsc),
 * at different depths, so the package root is found rather than assumed: it is the
 * first directory up that holds binding.gyp, which is where node-gyp puts build/.
 */
function addonPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'binding.gyp'))) return join(dir, 'build', 'Release', 'peercred.node');
    const parent = dirname(dir);
    if (parent === dir) throw new Error('peer credentials: no binding.gyp above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

function loadAddon(): PeercredAddon {
  if (addon) return addon;
  const path = addonPath();
  if (!existsSync(path)) {
    throw new Error(`peer credentials: native addon ${path} is missing; run npm install (it builds it with node-gyp)`);
  }
  addon = createRequire(import.meta.url)(path) as PeercredAddon;
  return addon;
}

/**
 * The pid, uid and gid of the process on the other end of a Unix-domain connection,
 * as the kernel recorded them at connect(2); the peer cannot forge them.
 */
export function peerCredentials(socket: Socket): PeerCredentials {
  // Node keeps the descriptor on its internal handle only. A TCP socket has an fd too,
  // and the kernel answers SO_PEERCRED on it without error (uid 4294967295), so the
  // handle must also be a Pipe, Node's wrapper for Unix-domain sockets.
  const handle = (socket as unknown as { _handle?: { fd?: unknown; constructor?: { name?: string } } })._handle;
  const fd = handle?.fd;
  if (typeof fd !== 'number' || fd < 0 || handle?.constructor?.name !== 'Pipe') {
    throw new Error('peer credentials need a Unix-socket connection');
  }
  return loadAddon().peerCredentials(fd);
}

/** The uid this service runs as; a peer with the same uid is the admin. */
export function processUid(): number {
  if (typeof process.getuid !== 'function') throw new Error('process.getuid is unavailable on this platform');
  return process.getuid();
}
