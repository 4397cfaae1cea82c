import { useEffect, useState } from 'preact/hooks';
import { Problem } from '../problem.js';
import { orgRpc, type OrgVerbAnswer } from './org-rpc.js';
import { whenIso } from '../when.js';

type Member = OrgVerbAnswer<'gv.org_members'>['members'][number];

/** The member gates, as `gate org member list` prints them; adding and revoking stay commands (`gate org member`). */
export function OrgMembers({ members, error }: { members: readonly Member[] | null; error: unknown }) {
  if (error !== null) return <Problem error={error} />;
  if (members === null) return <p class="hint">Reading the members…</p>;
  return (
    <section class="org-members">
      <h2>Members</h2>
      <p class="hint">Added and revoked with gate org member add | revoke on a host that reaches the org's database.</p>
      {members.length === 0 ? (
        <p class="empty">No member gate yet.</p>
      ) : (
        <table class="members">
          <thead>
            <tr>
              <th>Label</th>
              <th>Deployment id</th>
              <th>Added</th>
              <th>Live submit keys</th>
              <th>State</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr data-deployment={m.deployment_id}>
                <td class="label">{m.label}</td>
                <td class="id">{m.deployment_id}</td>
                <td>{whenIso(m.added_at)}</td>
                <td>{m.live_keys}</td>
                <td class={m.forked === null ? 'state' : 'state problem'}>
                  {m.revoked ? 'revoked' : 'member'}
                  {/* Its submissions showed two journals under its one deployment: docs/operations.md, "Two chains under one deployment". */}
                  {m.forked !== null && ` · TWO CHAINS from seq ${m.forked.seq}, seen ${whenIso(m.forked.seen_at)}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The members once per sign-in: the inbox and outcomes name a member by its label. */
export function useMembers(signedIn: boolean): { members: Member[] | null; error: unknown } {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!signedIn) return;
    orgRpc('gv.org_members').then((a) => setMembers(a.members), setError);
  }, [signedIn]);
  return { members, error };
}
