import { useEffect, useState } from 'preact/hooks';
import { Problem } from '../problem.js';
import { go } from '../route.js';
import { when } from '../when.js';
import type { EventCheck } from '../event-check.js';
import { checkOutcomeLine } from './outcome-check.js';
import { orgRpc, type OrgVerbAnswer } from './org-rpc.js';

type Page = OrgVerbAnswer<'gv.org_outcomes'>;

const lineWords = (c: EventCheck | undefined) =>
  c === undefined ? 'checking…' : c.state === 'verified' ? <span class="sig sig-ok">verified in your browser</span> : c.state === 'failed' ? <span class="sig sig-bad">does not hold: {c.why}</span> : null;

/**
 * The org's decisions, newest first: what members are sent, and what stays here (who decided,
 * a refusal's category and reason); each line the members receive is checked in this page
 * against the org's deployment id.
 */
export function OrgOutcomes({ members, orgId }: { members: ReadonlyMap<string, string>; orgId: string }) {
  const [items, setItems] = useState<Page['items']>([]);
  const [checks, setChecks] = useState<ReadonlyMap<number, EventCheck>>(new Map());
  const [before, setBefore] = useState<number | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const more = (from?: number) =>
    orgRpc('gv.org_outcomes', from === undefined ? { limit: 50 } : { limit: 50, before: from }).then((page) => {
      setItems((had) => [...had, ...page.items]);
      setBefore(page.before);
      void Promise.all(page.items.map(async (o) => [o.seq, await checkOutcomeLine(orgId, o.line, o)] as const)).then((done) => setChecks((had) => new Map([...had, ...done])));
    }, setError);
  useEffect(() => void more(), []);
  if (error !== null) return <Problem error={error} />;
  if (before === undefined) return <p class="hint">Reading the org's log…</p>;
  return (
    <section class="org-outcomes">
      <h2>Outcomes</h2>
      {items.length > 0 && checks.size === items.length && (
        <p class="sig-summary">
          {[...checks.values()].filter((c) => c.state === 'verified').length} of {items.length} signed lines verified in your browser against organization {orgId}.
        </p>
      )}
      {[...checks.values()].some((c) => c.state === 'failed') && (
        <p class="sig-alarm" role="alert">
          A line members are sent does not hold: it is not what this organization signed, or not what its log says was decided.
        </p>
      )}
      {items.length === 0 ? (
        <p class="empty">Nothing decided yet.</p>
      ) : (
        <table class="outcomes">
          <thead>
            <tr>
              <th>#</th>
              <th>Decision</th>
              <th>Submission</th>
              <th>Member</th>
              <th>Class</th>
              <th>By</th>
              <th>As</th>
              <th>When</th>
              <th>Why (kept here)</th>
              <th>Signed line</th>
            </tr>
          </thead>
          <tbody>
            {items.map((o) => (
              <tr data-artifact={o.artifact_id} data-type={o.type}>
                <td>{o.seq}</td>
                <td class="type">{o.type}</td>
                <td>
                  <a href="#" class="id" onClick={(e) => (e.preventDefault(), go('submission', o.artifact_id, new URLSearchParams({ member: o.member_deployment_id })))}>
                    {o.artifact_id.slice(0, 19)}…
                  </a>
                </td>
                <td>{members.get(o.member_deployment_id) ?? <span class="id">{o.member_deployment_id.slice(0, 10)}…</span>}</td>
                <td>{o.trust_class}</td>
                <td class="by id">{o.by}</td>
                <td class="authority-class">{o.authority_class}</td>
                <td>{when(o.ts)}</td>
                <td class="why">{o.type === 'refuse' ? `${o.category ?? ''}${o.reason ? `: ${o.reason}` : ''}` : ''}</td>
                <td class="line-check" data-check={checks.get(o.seq)?.state ?? 'checking'}>
                  {lineWords(checks.get(o.seq))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {before !== null && (
        <button type="button" onClick={() => void more(before)}>
          Older
        </button>
      )}
    </section>
  );
}
