import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The files of a gate's home directory. */
export interface HomePaths {
  home: string;
  config: string;
  db: string;
  /** The held rows' text index, derived from gate.db's views and written by a thread of its own (workers/held-writer/held-index-file.ts). */
  heldIndex: string;
  key: string;
  socket: string;
  lock: string;
  /** Who may sign in at this gate's own issuer, with password hashes (auth/people-file.ts). */
  people: string;
  /** The content-addressed attachment store and unfinished uploads. */
  attachments: string;
  /** The organization's submit key as gate org join keeps it (0600; [org].api_key_file names it). */
  orgKey: string;
  /** Left by `gate restore` for the first start to journal, then removed (docs/operations.md). */
  restoredFrom: string;
  /** A new deployment key while `gate key rotate` writes it; the start finishes or drops a rotation a crash cut short. */
  nextKey: string;
}

/** Home: --home, else $GATE_HOME, else ~/.local/share/gate. */
export function resolveHome(flag?: string, env: NodeJS.ProcessEnv = process.env): HomePaths {
  const home = resolve(flag ?? env['GATE_HOME'] ?? join(homedir(), '.local', 'share', 'gate'));
  return {
    home,
    config: join(home, 'gate.toml'),
    db: join(home, 'gate.db'),
    heldIndex: join(home, 'held-index.db'),
    key: join(home, 'deployment.key'),
    socket: join(home, 'gate.sock'),
    lock: join(home, 'gate.lock'),
    people: join(home, 'people.json'),
    attachments: join(home, 'attachments'),
    orgKey: join(home, 'org-submit.key'),
    restoredFrom: join(home, 'restored-from.json'),
    nextKey: join(home, 'deployment.key.next'),
  };
}
