import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { BAN_KINDS, isActive, type BanKind } from '../../access/bans.js';
import { SourceUriError, normalPrefix, sourceMatches } from '../../access/source-prefix.js';
import { HELD_STATES, PROMOTED_STATES } from '../../domain/states.js';
import type { House } from '../house.js';

/** The identities a connection can have: a person (`<iss>|<sub>`), an API key, a socket peer, the keyless loopback tool door (`local:mcp`). */
const IDENTITY = /^(key:[0-9a-f]{12}|uid:\d{1,10}|local:[a-z0-9-]{1,64}|[^\s|]+\|[^\s|]+)$/;
const SOURCES_SHOWN = 50;

const promoted = [...PROMOTED_STATES];
const held = [...HELD_STATES];

/** A ban's subject in the form it is stored and matched: an identity as given, a source prefix in its normal form. */
function subjectOf(kind: BanKind, raw: string): string {
  if (kind === 'writer') {
    if (!IDENTITY.test(raw)) {
      throw invalidParams('a writer ban names an identity: key:<key_id>, uid:<n>, <iss>|<sub> or local:<name>', { field: 'subject' });
    }
    return raw;
  }
  let prefix: string;
  try {
    prefix = normalPrefix(raw);
  } catch (error) {
    if (error instanceof SourceUriError) throw invalidParams(`a source ban's prefix must parse as a URL when it names a scheme: ${error.message}`, { field: 'subject' });
    throw error;
  }
  if (prefix === '') throw invalidParams('a source ban names a source_uri prefix with something in it', { field: 'subject' });
  return prefix;
}

/** What a writer ban would stop: that identity's rows, its last write, what bans already turned away. */
function writerDryRun(house: Pick<House, 'store' | 'clock'>, subject: string) {
  return {
    promoted: house.store.artifacts.promotedRowsBy(subject),
    held: house.store.artifacts.heldRowsBy(subject),
    last_write_ts: house.store.artifacts.lastWriteBy(subject),
    refused_last_7_days: house.store.bans.refusedLast7Days(subject, house.clock.now()),
  };
}

/** The rows whose source_uri the prefix matches, by source: the first 50 sources, and counts over all. */
function sourceDryRun(house: Pick<House, 'store'>, subject: string) {
  const sources = new Set<string>();
  let promotedRows = 0;
  let heldRows = 0;
  const rows = house.store.artifacts.rowsBySourceAndState();
  for (const r of rows) {
    if (!sourceMatches(subject, r.source_uri)) continue;
    sources.add(r.source_uri);
    if (promoted.includes(r.state as never)) promotedRows += r.n;
    if (held.includes(r.state as never)) heldRows += r.n;
  }
  const all = [...sources];
  return { sources: all.slice(0, SOURCES_SHOWN), truncated: all.length > SOURCES_SHOWN, promoted: promotedRows, held: heldRows };
}

const banAnswer = z.union([
  z.object({
    changed: z.boolean(),
    until: z.number().optional(),
    kind: z.enum(['source', 'writer']),
    subject: z.string(),
    active: z.boolean(),
    event_id: z.string().nullable(),
  }),
  z.object({
    promoted: z.number(),
    held: z.number(),
    last_write_ts: z.number().int().nullable(),
    refused_last_7_days: z.number(),
    kind: z.literal('writer'),
    subject: z.string(),
    dry_run: z.literal(true),
  }),
  z.object({
    sources: z.array(z.string()),
    truncated: z.boolean(),
    promoted: z.number(),
    held: z.number(),
    kind: z.literal('source'),
    subject: z.string(),
    dry_run: z.literal(true),
  }),
]);

export const banVerb = defineVerb({
  name: 'gv.ban',
  role: 'admin',
  summary:
    "Ban a writer (an identity) or a source (a source_uri prefix) at every write door, optionally until a time; lift ends a ban; dry_run shows what it would stop.",
  params: z.strictObject({
    kind: z.enum(BAN_KINDS),
    subject: z.string().min(1).max(4096),
    reason: z.string().min(1).max(500).optional(),
    until: z.number().int().min(0).optional(),
    lift: z.boolean().optional(),
    dry_run: z.boolean().optional(),
  }),
  answer: banAnswer,
  uses: ['store', 'clock'],
  handler({ caller, store, clock }, p) {
    const lift = p.lift === true;
    const subject = subjectOf(p.kind, p.subject);
    if (p.dry_run === true) {
      // Each kind's answer says its kind as a literal, so a caller's type tells the two apart.
      if (p.kind === 'writer') return { kind: 'writer' as const, subject, dry_run: true as const, ...writerDryRun({ store, clock }, subject) };
      return { kind: 'source' as const, subject, dry_run: true as const, ...sourceDryRun({ store }, subject) };
    }
    if (lift && p.until !== undefined) throw invalidParams('until is for a ban, not a lift', { field: 'until' });
    if (!lift && p.reason === undefined) throw invalidParams('a ban needs a reason (only a lift may omit it)', { field: 'reason' });
    return store.writer.write(() => {
      const now = clock.now();
      if (p.until !== undefined && p.until <= now) throw invalidParams('until must be in the future (ms since epoch)', { field: 'until' });
      const found = store.bans.one(p.kind, subject);
      const standing = found !== undefined && isActive(found, now) ? found : undefined;
      const until = p.until ?? null;
      if (lift ? standing === undefined : standing !== undefined && standing.until === until) {
        // A repeat of a standing ban, or a lift of none, changes nothing and journals nothing.
        return {
          kind: p.kind,
          subject,
          active: standing !== undefined,
          event_id: standing?.event_id ?? null,
          ...(standing?.until == null ? {} : { until: standing.until }),
          changed: false,
        };
      }
      const data = {
        kind: p.kind,
        subject,
        ...(lift ? { lift: true as const } : {}),
        ...(p.reason === undefined ? {} : { reason: p.reason }),
        ...(until === null ? {} : { until }),
      };
      const event = store.journal.append('ban', caller.identity, data);
      return { kind: p.kind, subject, active: !lift, event_id: event.event_id, ...(until === null ? {} : { until }), changed: true };
    });
  },
});
