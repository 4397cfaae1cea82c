import type Database from 'better-sqlite3';

/** How two journals of one deployment stand to each other (`gate verify --against`). */
export type ChainRelation =
  | { relation: 'other_deployment'; this_deployment: string | null; other_deployment: string | null }
  | { relation: 'identical'; events: number }
  /** One is the other's beginning: `shorter` holds the first `common` events of the longer. */
  | { relation: 'prefix'; shorter: 'this' | 'other'; common: number; this_events: number; other_events: number }
  /** Two chains under one deployment: they agree up to `common`, then each goes on its own way. */
  | { relation: 'forked'; common: number; common_head: string | null; fork_seq: number; this_event: string; other_event: string; this_events: number; other_events: number };

interface Side {
  events: number;
  idAt(seq: number): string | undefined;
  deploymentId: string | null;
}

function side(db: Database.Database): Side {
  const at = db.prepare<[number], string>('SELECT event_id FROM journal WHERE seq = ?').pluck();
  const genesis = db.prepare<[], string>('SELECT body FROM journal WHERE seq = 1').pluck().get();
  const id = genesis === undefined ? undefined : (JSON.parse(genesis) as { data?: { deployment_id?: unknown } }).data?.deployment_id;
  return {
    events: (db.prepare('SELECT coalesce(max(seq), 0) FROM journal').pluck().get() as number) ?? 0,
    idAt: (seq) => at.get(seq),
    deploymentId: typeof id === 'string' ? id : null,
  };
}

/**
 * Compares two verified journals. Each event names the one before it, so two journals that
 * hold the same event at a seq hold the same events before it: where they part is found by
 * halving, a few point reads however long the journals.
 */
export function compareChains(mine: Database.Database, theirs: Database.Database): ChainRelation {
  const a = side(mine);
  const b = side(theirs);
  if (a.deploymentId === null || a.deploymentId !== b.deploymentId) {
    return { relation: 'other_deployment', this_deployment: a.deploymentId, other_deployment: b.deploymentId };
  }
  const shared = Math.min(a.events, b.events);
  if (a.idAt(shared) === b.idAt(shared)) {
    if (a.events === b.events) return { relation: 'identical', events: a.events };
    return { relation: 'prefix', shorter: a.events < b.events ? 'this' : 'other', common: shared, this_events: a.events, other_events: b.events };
  }
  // `agree` holds the same event in both (0: none), `differ` not: halve between them.
  let agree = 0;
  let differ = shared;
  while (differ - agree > 1) {
    const mid = Math.floor((agree + differ) / 2);
    if (a.idAt(mid) === b.idAt(mid)) agree = mid;
    else differ = mid;
  }
  return {
    relation: 'forked',
    common: agree,
    common_head: a.idAt(agree) ?? null,
    fork_seq: differ,
    this_event: a.idAt(differ)!,
    other_event: b.idAt(differ)!,
    this_events: a.events,
    other_events: b.events,
  };
}
