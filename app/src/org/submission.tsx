import { useEffect, useState } from 'preact/hooks';
import type { EventCheck } from '../event-check.js';
import { Problem } from '../problem.js';
import { RejectForm } from '../reject-form.js';
import type { RejectCategory } from '../../../src/domain/rejection-reasons.js';
import { when } from '../when.js';
import { orgRpc, type OrgVerbAnswer } from './org-rpc.js';
import { PersonsCopyView } from './persons-copy-view.js';
import { checkRetraction, checkSubmission, type SignatureCheck, type SubmissionShape } from './submission-signatures.js';
import { holdWords } from './inbox.js';
import { StandingNote } from './standing-note.js';
import { MemberPerson } from './member-person.js';
import { submissionNames } from '../../../src/forms/submission-people.js';

type Submission = OrgVerbAnswer<'gv.org_submission'>;

interface Approval {
  status?: string;
  approved_by?: Record<string, number>;
  signers?: Array<{ identity?: string; class?: string; decision?: string; counts?: boolean }>;
}
interface LocalDecision {
  type?: string;
  by?: string | null;
  ts?: number;
  event_id?: string;
  verified?: boolean;
}

function CheckLine({ c, memberId }: { c: SignatureCheck; memberId: string }) {
  const state: EventCheck['state'] = c.check.state;
  return (
    <li class={`sig-${state}`} data-check={state}>
      {c.what}:{' '}
      {c.check.state === 'verified' ? (
        <span class="sig sig-ok">{c.signed ? `verified in your browser against member ${memberId.slice(0, 10)}…` : 'matches (checked in your browser)'}</span>
      ) : c.check.state === 'failed' ? (
        <span class="sig sig-bad">does not hold: {c.check.why}</span>
      ) : (
        <span class="sig sig-withheld">not checkable here</span>
      )}
    </li>
  );
}

/**
 * One submission: its state and the org's decision, a person's copy of its content, its
 * member's signatures checked in this page, the local approval and decisions as the member
 * reported them, and (while undecided) countersign or refuse as the signed-in person. A
 * submission whose signatures do not hold here is not offered for countersigning.
 */
export function OrgSubmission({ memberId, artifactId, you, onNotice }: { memberId: string; artifactId: string; you: string; onNotice: (text: string) => void }) {
  const [item, setItem] = useState<Submission | null>(null);
  const [checks, setChecks] = useState<SignatureCheck[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [refusing, setRefusing] = useState(false);
  const [busy, setBusy] = useState(false);

  // raw: this page checks the member's signature over the very bytes it signed, and shows only the person's copy.
  const load = () =>
    orgRpc('gv.org_submission', { member_deployment_id: memberId, artifact_id: artifactId, raw: true }).then((got) => {
      setItem(got);
      setChecks(null);
      const checking =
        got.erased !== null
          ? checkRetraction(memberId, got.artifact_id, got.erased)
          : checkSubmission(memberId, { artifact_id: got.artifact_id, submission: got.submission as SubmissionShape, id: got.id, sig: got.sig });
      void checking.then(setChecks, setError);
    }, setError);

  const take = () => {
    setBusy(true);
    setError(null);
    orgRpc('gv.org_take', { member_deployment_id: memberId, artifact_id: artifactId })
      .then((taken) => {
        onNotice(`Taken: held for you until ${when(taken.item!.held_until!)}.`);
        return load();
      }, setError)
      .finally(() => setBusy(false));
  };
  useEffect(() => void load(), [memberId, artifactId]);

  const decide = (decision: 'countersign' | 'refuse', category?: RejectCategory, reason?: string) => {
    setBusy(true);
    setError(null);
    orgRpc('gv.org_review', {
      member_deployment_id: memberId,
      artifact_id: artifactId,
      decision,
      ...(category === undefined ? {} : { category }),
      ...(reason === undefined || reason === '' ? {} : { reason }),
    })
      .then((done) => {
        setRefusing(false);
        const act = decision === 'countersign' ? 'countersign' : 'refusal';
        const more = done.waits_for === 1 ? 'one more person' : `${done.waits_for} more people`;
        onNotice(
          done.waits_for !== undefined
            ? done.changed
              ? `Recorded: your ${act} waits for ${more}.`
              : `Your ${act} already waits for ${more}.`
            : done.changed
              ? decision === 'countersign'
                ? 'Countersigned.'
                : 'Refused.'
              : `Already decided: ${done.state}.`,
        );
        return load();
      }, setError)
      .finally(() => setBusy(false));
  };

  if (item === null) return error === null ? <p class="hint">Reading the submission…</p> : <Problem error={error} />;
  const s = item.submission as SubmissionShape & { approval?: Approval; decisions?: LocalDecision[]; envelope?: Record<string, unknown>; people?: unknown };
  const names = submissionNames(s.people);
  const undecided = item.state === 'leased' || item.state === 'held';
  const failing = checks?.filter((c) => c.check.state === 'failed') ?? [];
  const verified = checks?.filter((c) => c.check.state === 'verified').length ?? 0;
  const heldByOther = item.held_by !== null && item.held_by !== you;
  // A person who acted on the row at the member is not offered a decision: it would not be a second person's.
  const mayDecide = undecided && item.standing.counts !== 'not';
  // The decision of theirs that waits for others: made once is enough; the other one replaces it.
  const mineWaiting = item.waiting.find((w) => w.by === you)?.decision;
  return (
    <section class="org-submission" data-state={item.state}>
      <h2>
        Submission <span class="id">{item.artifact_id}</span> <span class="tag">{item.trust_class}</span>
      </h2>
      <p class="meta">
        State <strong class="state">{item.state}</strong>; from member <span class="id">{memberId}</span>; received {when(item.received_at)}, attempt {item.attempts}
        ; <span class="hold">{holdWords(item, you)}</span>.
      </p>
      {item.erased !== null && (
        <p class="erased" role="note">
          Its member erased this row's content on {when(item.erased.retraction.erased_ts)}, and the organization erased its copy on {when(item.erased.at)}: none of its bytes are held here.
          {item.state === 'retracted' ? ' It left the inbox undecided.' : ''}
        </p>
      )}
      {undecided && <StandingNote item={item} you={you} />}
      {item.decision !== null && (
        <p class="decision">
          {item.decision.type === 'countersign' ? 'Countersigned' : 'Refused'} by <span class="by id">{item.decision.by}</span>
          {'with' in item.decision && item.decision.with !== undefined ? (
            <>
              {' '}
              with{' '}
              {item.decision.with.map((w, n) => (
                <>
                  {n > 0 ? ', ' : ''}
                  <span class="with-by id">{w.by}</span>
                </>
              ))}
              , who decided before
            </>
          ) : null}{' '}
          as signer class{' '}
          <strong class="authority-class">{item.decision.authority_class}</strong> on {when(item.decision.ts)}
          {item.decision.category ? `; category ${item.decision.category}` : ''}
          {item.decision.reason ? `; reason: ${item.decision.reason}` : ''}.
        </p>
      )}
      <Problem error={error} />
      {mayDecide && (
        <div class="actions">
          {heldByOther && <p class="hint">Another reviewer holds this submission; it is theirs to decide until {when(item.held_until!)}.</p>}
          {!heldByOther && item.held_by !== you && mineWaiting === undefined && (
            <>
              <button type="button" id="take" disabled={busy} onClick={take}>
                Take it
              </button>{' '}
            </>
          )}
          <button type="button" id="countersign" class="approve" disabled={busy || heldByOther || mineWaiting === 'countersign' || checks === null || failing.length > 0} onClick={() => decide('countersign')}>
            Countersign
          </button>{' '}
          <button type="button" id="refuse" disabled={busy || heldByOther || mineWaiting === 'refuse'} onClick={() => setRefusing(true)}>
            Refuse…
          </button>
          {failing.length > 0 && <p class="hint">Countersigning is not offered: a signature does not hold in your browser.</p>}
          {refusing && <RejectForm act="Refuse" reasonRequired={true} onReject={(category, reason) => decide('refuse', category, reason)} onCancel={() => setRefusing(false)} />}
        </div>
      )}

      <h3>Content</h3>
      <PersonsCopyView copy={item.copy} sizeBytes={s.envelope?.['size_bytes']} anchors="finding" />

      <h3>Signatures</h3>
      {checks === null ? (
        <p class="hint checking">Checking the member's signatures in your browser…</p>
      ) : (
        <>
          <p class="sig-summary">
            {verified} of {checks.length} checks verified in your browser against member {memberId}.
          </p>
          {failing.length > 0 && (
            <p class="sig-alarm" role="alert">
              {failing.length === 1 ? 'One check does' : `${failing.length} checks do`} not hold: this is not the submission the member signed, or not as the member signed it.
            </p>
          )}
          <ol class="sig-checks">
            {checks.map((c) => (
              <CheckLine c={c} memberId={memberId} />
            ))}
          </ol>
        </>
      )}

      <h3>The member's approval</h3>
      <p class="approval">
        {s.approval?.status ?? 'no status'}
        {s.approval?.approved_by ? ` · ${Object.entries(s.approval.approved_by).map(([k, v]) => `${k} ${v}`).join(', ')}` : ''}
      </p>
      {(s.approval?.signers ?? []).length > 0 && (
        <ul class="signers">
          {s.approval!.signers!.map((g) => (
            <li>
              <MemberPerson identity={g.identity ?? '?'} names={names} /> ({g.class}) {g.decision}
              {g.counts === false ? ', not counted' : ''}
            </li>
          ))}
        </ul>
      )}
      <h4>Its decisions, as the member reported them</h4>
      {(s.decisions ?? []).length === 0 ? (
        <p class="empty">None reported.</p>
      ) : (
        <ul class="local-decisions">
          {s.decisions!.map((d) => (
            <li>
              {d.type} by <MemberPerson identity={d.by} names={names} /> on {when(d.ts)}
              <span class="sig sig-withheld">{d.verified ? ' signature verified by the member (its bytes are not carried; covered by its signature over the submission)' : ' the member could not verify its signature'}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
