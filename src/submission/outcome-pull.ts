import { ErrorCode, GateError, lifecycle } from '../gate-error.js';
import { GateClientError } from '@gate/client';
import { verifyOutcomeLine, type Outcome } from '../forms/outcome-line.js';
import { orgDoorClient } from './org-door.js';
import { rowEventData } from '../projections/row-event.js';
import { ed25519KeyTextProblem } from '../forms/strict-ed25519.js';
import type { Store } from '../store/store.js';
import type { GateConfig } from '../config/keys.js';
import type { Deployment } from '../journal/deployment.js';
import type { Log } from '../log.js';

/** The organization's key: [org].deployment_id, else the one journaled when the gate first met it. */
export function pinnedOrg(house: { readonly store: Store; readonly config: GateConfig }): string | null {
  if (house.config.org.deployment_id !== '') return house.config.org.deployment_id;
  const body = house.store.journalReads.orgPinnedBody();
  return body === undefined ? null : ((JSON.parse(body) as { data: { org_deployment_id: string } }).data.org_deployment_id);
}

/**
 * Where the next pull starts: the highest org seq this gate journaled an outcome under.
 * Read from the journal itself, so a restart or a lost reply resumes where the journal is.
 */
function cursorOf(house: { readonly store: Store }): number {
  const seq = house.store.journalReads.outcomeCursor();
  return seq ?? 0;
}

export interface PullTally {
  pulled: number;
  countersigned: number;
  refused: number;
  /** Lines already journaled (a repeat after a lost reply or a restart): never journaled twice. */
  duplicates: number;
  /** Lines that name no row of this gate, or a row no longer in a state the outcome applies to. */
  skipped: number;
  cursor: number;
  org_deployment_id: string | null;
}

/** A line that does not verify, or an org key other than the pinned one: nothing of the page is journaled. */
const refused = (message: string) => lifecycle(message, 'outcome_refused');

/**
 * Journals one verified outcome in one write: countersign clears provisional and takes a
 * ratified row to ACTIVE (docs/protocol.md#states: a T-3/T-5 row is promoted once a second authority
 * countersigns); refuse takes the row to DEMOTED. Both sign as the authority class.
 */
function applyOutcome(house: { readonly store: Store; readonly deployment: Deployment }, org: string, line: Record<string, unknown>, outcome: Outcome): 'countersigned' | 'refused' | 'duplicates' | 'skipped' {
  const row = house.store.artifacts.byId(outcome.artifact_id);
  if (row === undefined || outcome.member_deployment_id !== house.deployment.deploymentId) return 'skipped';
  if (house.store.journalReads.hasOutcome(row.artifact_id, org)) return 'duplicates';
  const own = {
    signer_class: 'authority',
    decision: outcome.type,
    org_deployment_id: org,
    org_seq: line['seq'],
    submission_id: outcome.submission_id,
    authority_class: outcome.authority_class,
    // The org's signed line as it came, so anyone can check the countersign against the org key.
    outcome: line,
  };
  if (outcome.type === 'countersign') {
    const enters = row.state === 'L3_RATIFIED' ? 'ACTIVE' : row.state === 'ACTIVE' || row.state === 'SUPERSEDED' ? row.state : null;
    if (enters === null) return 'skipped';
    house.store.journal.append('countersign', `org:${org}`, rowEventData(row, enters, { ...own, provisional: false }));
    return 'countersigned';
  }
  if (!['ACTIVE', 'SUPERSEDED', 'L3_RATIFIED'].includes(row.state)) return 'skipped';
  house.store.journal.append('refuse', `org:${org}`, rowEventData(row, 'DEMOTED', own));
  return 'refused';
}

/** One pull at a time per gate (the schedule's and gv.outcomes_pull's), so no page is applied twice at once. */
const pulling = new WeakSet<Store>();

/**
 * Pulls GET /outcomes from the journal's cursor until a page comes back empty (or `maxPages`),
 * with the client transport rules (docs/protocol.md#client-transport-rules; OrgDoorClient: deadline, caps, no redirects; a busy door's
 * Retry-After is kept in the error). Every line is checked against the pinned org key first.
 */
export async function pullOutcomes(house: { readonly store: Store; readonly deployment: Deployment; readonly config: GateConfig; readonly log: Log }, maxPages = 20): Promise<PullTally> {
  if (house.config.org.url === '') throw lifecycle('no organization gate is configured ([org].url)', 'no_endpoint');
  if (pulling.has(house.store)) throw lifecycle('a pull is already running', 'pull_running');
  pulling.add(house.store);
  const door = orgDoorClient(house);
  const tally: PullTally = { pulled: 0, countersigned: 0, refused: 0, duplicates: 0, skipped: 0, cursor: cursorOf(house), org_deployment_id: pinnedOrg(house) };
  try {
    for (let page = 0; page < maxPages; page++) {
      const answer = await door.outcomes(tally.cursor);
      if (answer.deployment_id === null) throw refused('the organization gate named no deployment id');
      const weak = ed25519KeyTextProblem(answer.deployment_id);
      if (weak !== null) throw refused(`the organization gate's deployment id is not a usable Ed25519 key: ${weak}`);
      if (tally.org_deployment_id === null) {
        const named = answer.deployment_id;
        await house.store.writer.write(() => {
          if (pinnedOrg(house) === null) house.store.journal.append('org-pinned', null, { org_deployment_id: named, url: house.config.org.url });
        });
        tally.org_deployment_id = pinnedOrg(house);
      }
      const org = tally.org_deployment_id!;
      if (answer.deployment_id !== org) throw refused(`the organization gate's key changed: pinned ${org}, it now names ${answer.deployment_id}`);
      if (answer.events.length === 0) break;
      const verified = answer.events.map((line) => {
        const outcome = verifyOutcomeLine(line, org);
        if (outcome === null || typeof line['seq'] !== 'number') throw refused(`an outcome line does not verify against the pinned org key (seq ${String(line['seq'])})`);
        return { line, outcome };
      });
      for (const { line, outcome } of verified) {
        const applied = await house.store.writer.write(() => applyOutcome(house, org, line, outcome));
        // What the organization decided reaches the operator's log, not only the journal: a line per row it changed.
        if (applied === 'countersigned' || applied === 'refused') {
          house.log.info(`organization ${applied}`, { artifact_id: outcome.artifact_id, org_seq: line['seq'] as number, authority_class: outcome.authority_class });
        }
        tally[applied] += 1;
        tally.pulled += 1;
        tally.cursor = Math.max(tally.cursor, line['seq'] as number);
      }
    }
  } catch (error) {
    if (error instanceof GateClientError) {
      const retry = error.retry_after_ms === undefined ? {} : { retry_after_ms: error.retry_after_ms };
      throw new GateError(ErrorCode.lifecycle, `the organization gate's outcomes could not be read: ${error.kind}: ${error.message}`, { reason: 'org_unreachable', ...retry });
    }
    throw error;
  } finally {
    pulling.delete(house.store);
    await door.close();
  }
  if (tally.pulled > 0) {
    const { org_deployment_id: org, ...counts } = tally;
    house.log.info('organization outcomes pulled', { ...counts, org_deployment_id: org });
  }
  return tally;
}
