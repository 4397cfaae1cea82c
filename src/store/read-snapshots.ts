import Database from 'better-sqlite3';
import type { Store } from './store.js';

/** How gate.db is opened for reading: the main connection's page cache and mmap. */
export interface ReadConnectionSettings {
  path: string;
  cacheKiB: number;
  mmapBytes: number;
}

/** A read that holds one state of the views while it yields between its chunks. */
export interface Snapshot {
  /** Every read model, over the state this snapshot holds (writes go nowhere through it: the connection is query-only). */
  readonly store: Store;
  /** The journal's last seq in that state. */
  readonly headSeq: number;
  /** Ends the read transaction and gives the connection back. */
  release(): void;
}

interface Connection {
  db: Database.Database;
  store: Store;
  begin: Database.Statement;
  head: Database.Statement;
  end: Database.Statement;
}

/**
 * Connections of their own for reads that yield to the event loop between chunks: each read
 * runs inside one read transaction (WAL: the main connection keeps committing), so what it
 * reads in its last chunk belongs to the same state as its first and no answer is stitched
 * from two states of the views. At most `max` at once; each has its own prepared read models
 * (a Store over it), made when first needed and kept.
 */
export class ReadSnapshots {
  private readonly idle: Connection[] = [];
  private opened = 0;
  private closed = false;

  constructor(
    private readonly settings: ReadConnectionSettings,
    /** The read models over a connection (the root's Store, built on it). */
    private readonly storeOn: (db: Database.Database) => Store,
    readonly max: number,
  ) {}

  /** A snapshot of the views now, or null while `max` are held. */
  take(): Snapshot | null {
    if (this.closed) throw new Error('the read connections are closed');
    const connection = this.idle.pop() ?? (this.opened < this.max ? this.open() : null);
    if (connection === null) return null;
    connection.begin.run();
    let headSeq: number;
    try {
      // The first read fixes the state the transaction reads.
      headSeq = connection.head.get() as number;
    } catch (error) {
      connection.end.run();
      this.idle.push(connection);
      throw error;
    }
    let released = false;
    return {
      store: connection.store,
      headSeq,
      release: () => {
        if (released) return;
        released = true;
        connection.end.run();
        if (this.closed) connection.db.close();
        else this.idle.push(connection);
      },
    };
  }

  /** Closes the idle connections now and each held one as it is given back. */
  close(): void {
    this.closed = true;
    for (const connection of this.idle.splice(0)) connection.db.close();
  }

  private open(): Connection {
    const db = new Database(this.settings.path, { fileMustExist: true });
    try {
      db.pragma('query_only = ON');
      db.pragma(`cache_size = -${this.settings.cacheKiB}`);
      db.pragma(`mmap_size = ${this.settings.mmapBytes}`);
      const connection = {
        db,
        store: this.storeOn(db),
        begin: db.prepare('BEGIN'),
        head: db.prepare('SELECT coalesce(max(seq), 0) FROM journal').pluck(),
        end: db.prepare('COMMIT'),
      };
      this.opened += 1;
      return connection;
    } catch (error) {
      db.close();
      throw error;
    }
  }
}
