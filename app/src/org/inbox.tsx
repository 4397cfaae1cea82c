import { useEffect, useState } from 'preact/hooks';
import { Problem } from '../problem.js';
import { go } from '../route.js';
import { when } from '../when.js';
import { orgRpc, type OrgVerbAnswer } from './org-rpc.js';
import { PersonsCopyView } from './persons-copy-view.js';

type Inbox = OrgVerbAnswer<'gv.org_inbox'>;

/**
 * The inbox: gv.org_inbox takes undecided submissions for this person (each held for
 * [org].review_hold_s, so another reviewer is not shown the same ones) and answers each with
 * a person's copy of its content. Deciding is on a submission's own screen, where its
 * signatures are checked first.
 */
export function OrgInbox({ members }: { members: ReadonlyMap<string, string> }) {
  const [inbox, setInbox] = useState<Inbox | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () => {
    setError(null);
    orgRpc('gv.org_inbox', { limit: 20, decoded: true }).then(setInbox, setError);
  };
  useEffect(load, []);
  if (error !== null) return <Problem error={error} />;
  if (inbox === null) return <p class="hint">Taking your submissions…</p>;
  return (
    <section class="org-inbox">
      <h2>
        Inbox <small>{inbox.items.length === 0 ? 'nothing waits for a decision' : `${inbox.items.length} held for you`}</small>
      </h2>
      <p>
        <button type="button" id="reload-inbox" onClick={load}>
          Take again
        </button>
      </p>
      {inbox.items.length === 0 && <p class="empty">No submission waits for a decision.</p>}
      {inbox.items.map((item, n) => (
        <article class="org-item" data-artifact={item.artifact_id}>
          <h3>
            <a
              class="open"
              href={`#/submission/${encodeURIComponent(item.artifact_id)}?member=${encodeURIComponent(item.member_deployment_id)}`}
              onClick={(e) => (e.preventDefault(), go('submission', item.artifact_id, new URLSearchParams({ member: item.member_deployment_id })))}
            >
              <span class="id">{item.artifact_id.slice(0, 23)}…</span>
            </a>{' '}
            <span class="tag">{item.trust_class}</span>
          </h3>
          <p class="meta hint">
            From {members.get(item.member_deployment_id) ?? 'a member'} (<span class="id">{item.member_deployment_id}</span>), received {when(item.received_at)}, attempt {item.attempts}, held for you until{' '}
            {when(item.held_until)}.
          </p>
          {'copy' in item ? <PersonsCopyView copy={item.copy} sizeBytes={(item.submission['envelope'] as { size_bytes?: unknown } | undefined)?.size_bytes} anchors={`item-${n + 1}-finding`} /> : null}
        </article>
      ))}
    </section>
  );
}
