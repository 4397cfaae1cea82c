import { useEffect, useState } from 'preact/hooks';
import { Problem } from '../problem.js';
import { go } from '../route.js';
import { when } from '../when.js';
import { orgRpc, type OrgVerbAnswer } from './org-rpc.js';
import { PersonsCopyView } from './persons-copy-view.js';
import { StandingNote, type Item } from './standing-note.js';

type Inbox = OrgVerbAnswer<'gv.org_inbox'>;

/** Who holds a submission, in the words the inbox and a submission's screen use. */
export function holdWords(item: Pick<Item, 'held_by' | 'held_until'>, you: string): string {
  if (item.held_by === null) return 'nobody holds it';
  return `held by ${item.held_by === you ? 'you' : item.held_by} until ${when(item.held_until!)}`;
}

/**
 * The inbox: gv.org_inbox lists the undecided submissions, oldest first, without taking any
 * (another reviewer reading theirs sees the same ones), each with who holds it and until when,
 * how this person's decision would count, and a person's copy of its content. Taking and
 * deciding are on a submission's own screen, where its signatures are checked first.
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
  if (inbox === null) return <p class="hint">Reading the inbox…</p>;
  return (
    <section class="org-inbox">
      <h2>
        Inbox <small>{inbox.items.length === 0 ? 'nothing waits for a decision' : `${inbox.items.length} undecided`}</small>
      </h2>
      <p>
        <button type="button" id="reload-inbox" onClick={load}>
          Read again
        </button>
      </p>
      {inbox.items.length === 0 && <p class="empty">No submission waits for a decision.</p>}
      {inbox.items.map((item, n) => (
        <article class="org-item" data-artifact={item.artifact_id} data-held-by={item.held_by ?? ''}>
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
            From {members.get(item.member_deployment_id) ?? 'a member'} (<span class="id">{item.member_deployment_id}</span>), received {when(item.received_at)}, attempt {item.attempts};{' '}
            <span class="hold">{holdWords(item, inbox.you)}</span>.
          </p>
          <StandingNote item={item} you={inbox.you} />
          {item.copy !== undefined ? <PersonsCopyView copy={item.copy} sizeBytes={(item.submission['envelope'] as { size_bytes?: unknown } | undefined)?.size_bytes} anchors={`item-${n + 1}-finding`} /> : null}
        </article>
      ))}
    </section>
  );
}
