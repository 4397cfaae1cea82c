import type { Caller } from './caller.js';
import { banned, invalidParams } from '../gate-error.js';
import type { BanRow } from '../projections/ban-reads.js';
import { SourceUriError, normalPrefix, normalSource, sourceMatches } from './source-prefix.js';
import { BAN_EVENTS } from '../projections/bans.js';
import type { Store } from '../store/store.js';
import type { Clock } from '../clock.js';

export const BAN_KINDS = ['writer', 'source'] as const;
export type BanKind = (typeof BAN_KINDS)[number];

/** A ban stands from its event until it is lifted or its `until` passes; the clock decides the second. */
export const isActive = (ban: Pick<BanRow, 'until'>, now: number) => ban.until === null || ban.until > now;

/** A source a write names, by the parameter that names it (`source_uri`, `attachments.0.source_uri`). */
export interface NamedSource {
  field: string;
  uri: string;
}

/**
 * The active ban that turns this write away: the writer's own first, else the longest source
 * prefix matching any of the sources the write names.
 */
export function banOnWrite(house: { readonly store: Store; readonly clock: Clock }, writer: string, sources: readonly string[]): BanRow | undefined {
  const kept = keptBans(house);
  const now = house.clock.now();
  const own = kept.writer(writer);
  if (own !== undefined && isActive(own, now)) return own;
  if (sources.length === 0) return undefined;
  return kept.sources().find(({ ban, prefix }) => isActive(ban, now) && sources.some((uri) => sourceMatches(prefix, uri)))?.ban;
}

/** A ban's stored subject in today's normal form: one stood under older rules (a prefix keeping userinfo) still holds. */
function currentPrefix(subject: string): string {
  try {
    return normalPrefix(subject);
  } catch {
    return subject;
  }
}

interface KeptBans {
  writer: (identity: string) => BanRow | undefined;
  /** Every source ban ever stood and not lifted, the longest prefix first; the caller judges which are active. */
  sources: () => ReadonlyArray<{ ban: BanRow; prefix: string }>;
}

/**
 * Every write door asks for the writer's ban and the source bans: the rows are kept until a
 * ban event is applied (whether a kept ban is active is judged against the clock each time).
 */
const keptByStore = new WeakMap<Store, KeptBans>();

function keptBans(house: { readonly store: Store }): KeptBans {
  let kept = keptByStore.get(house.store);
  if (kept === undefined) {
    const reads = house.store.bans;
    const changes = house.store.journal.viewChanges;
    kept = {
      writer: changes.memoByKey(BAN_EVENTS, (identity: string) => reads.one('writer', identity)),
      // Time 0: every source ban whose until has not passed by then, which is all of them.
      sources: changes.memo(BAN_EVENTS, () => reads.standingSources(0).map((ban) => ({ ban, prefix: currentPrefix(ban.subject) }))),
    };
    keptByStore.set(house.store, kept);
  }
  return kept;
}

/**
 * Every write door runs this before anything is scanned or stored (the dispatcher calls it
 * for each verb declaring a `door`), with every source the write names: a write whose own
 * source is clean and whose attachment's is banned is refused all the same. A refused write
 * is journaled as `ban-refused`: who, at which door, by which kind of ban; never what it
 * tried to write.
 */
export async function refuseBannedWrite(house: { readonly store: Store; readonly clock: Clock }, caller: Caller, door: string, sources: readonly NamedSource[] = []): Promise<void> {
  for (const { field, uri } of sources) {
    // A source naming a scheme that does not parse could be compared only as text, and so past any ban.
    try {
      normalSource(uri);
    } catch (error) {
      if (error instanceof SourceUriError) throw invalidParams(`${field} is refused: ${error.message}`, { field, reason: 'source_uri_unparseable' });
      throw error;
    }
  }
  const ban = banOnWrite(house, caller.identity, sources.map((s) => s.uri));
  if (ban === undefined) return;
  await house.store.writer.write(() => house.store.journal.append('ban-refused', caller.identity, { door, ban_kind: ban.kind, ban_event: ban.event_id }));
  throw banned(ban.kind, ban.subject, ban.until);
}
