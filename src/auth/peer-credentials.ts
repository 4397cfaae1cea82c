import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { nativeBuildPath } from '../native-build.js';

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

function loadAddon(): PeercredAddon {
  if (addon) return addon;
  addon = createRequire(import.meta.url)(nativeBuildPath('peercred.node')) as PeercredAddon;
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
