import { useCallback, useEffect, useState } from 'preact/hooks';
import { Person } from './person.js';
import { useKeys, KeyHelp, type Key } from './keys.js';
import { Problem } from './problem.js';
import { CommentForm, EvidenceForm, RejectForm } from './reject-form.js';
import { backToQueue, queueHref, type Place } from './route.js';
import { rpc } from './rpc.js';
import { useEventTail } from './live.js';
import { SupersessionDiff } from './supersession-diff.js';
import { Attachments } from './attachments.js';
import { RowTools } from './row-tools.js';
import { EventHistory } from './event-history.js';
import type { WhyEvent } from './event-check.js';
import type { ReviewItem } from './queue.js';
import type { VerbAnswer } from '../../src/verbs/verb-types.js';
import { ApproveOverFindings } from './approve-over-findings.js';
import { findingAnchor, flagging, lineOf, MarkedBody, outsideBody, type PlacedFinding } from './marked-body.js';

// One row: its body, why it waits, who signed, the thread, and the signatures a person may
// add. A reviewer's approval counts only once the whole masked body was served to them, so
// the body is read here page by page, and Approve stays off until the last page arrived and
// the reader scrolled to its end. It also waits for the row's history to be checked in this
// page. A history that failed the check, or findings that held the row, take a second,
// deliberate act to approve over; a veto finding, which no signature clears, keeps it off.

interface BodyRead {
  text: string;
  next: number | null;
  chars: number;
  masked: boolean;
  /** What the scanner found and where; served with a reviewer's pages of the masked body. */
  findings: PlacedFinding[];
}

export function Row({
  id,
  place,
  you,
  deploymentId,
  onNotice,
}: {
  id: string;
  place: Place;
  you: { identity: string; role: string };
  /** From /identity, not from the gate's answers about the row: the key the page checks signatures against. */
  deploymentId: string;
  /** A notice for the person; `on` is where it belongs when the act moves them (a place key), else this row. */
  onNotice: (t: string, on?: string) => void;
}) {
  const [node, setNode] = useState<VerbAnswer<'gv.node'> | null>(null);
  const [body, setBody] = useState<BodyRead | null>(null);
  const [approval, setApproval] = useState<VerbAnswer<'gv.approval'> | null>(null);
  const [comments, setComments] = useState<VerbAnswer<'gv.comments'>['comments']>([]);
  // Null until gv.why answered: the history is checked only once it is the row's own.
  const [events, setEvents] = useState<WhyEvent[] | null>(null);
  const [checkpoint, setCheckpoint] = useState<string | undefined>(undefined);
  /** gv.why's key_rotations: absent while the deployment's first key signs. */
  const [keyRotations, setKeyRotations] = useState<unknown>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [asking, setAsking] = useState<null | 'reject' | 'evidence' | 'comment'>(null);
  const [help, setHelp] = useState(false);
  // The queue's view of this row: findings, stances and attachment hashes gv.node does not carry.
  const [item, setItem] = useState<ReviewItem | null>(null);
  const [attachmentsRead, setAttachmentsRead] = useState(false);
  /** The failures of the history's check in this page (signatures, links, inclusion); null while it runs. */
  const [historyFailures, setHistoryFailures] = useState<number | null>(null);
  const [approveAnyway, setApproveAnyway] = useState(false);
  /** Whether the reader has scrolled the whole body's box to its end. */
  const [reachedEnd, setReachedEnd] = useState(false);
  /** The second step of approving over findings is open. */
  const [overFindings, setOverFindings] = useState(false);
  const reviewer = you.role === 'reviewer' || you.role === 'admin';

  const readPage = async (offset: number, sofar: BodyRead | null): Promise<BodyRead | null> => {
    const page = await rpc('gv.node', { artifact_id: id, body: true, ...(offset > 0 ? { offset } : {}) });
    setNode(page);
    const findings = page.findings ?? [];
    if (typeof page.body === 'string') return { text: page.body, next: null, chars: page.body.length, masked: false, findings };
    if (page.masked_body === undefined || page.masked_body === null) return { text: '', next: null, chars: 0, masked: true, findings };
    return { text: (sofar?.text ?? '') + page.masked_body, next: page.masked_next_offset ?? null, chars: page.masked_chars ?? 0, masked: true, findings };
  };

  const loadSide = useCallback(async () => {
    const [a, c, w] = await Promise.all([
      rpc('gv.approval', { artifact_id: id }),
      rpc('gv.comments', { artifact_id: id }),
      rpc('gv.why', { artifact_id: id }).catch(() => ({ events: [], checkpoint: undefined, key_rotations: undefined })),
    ]);
    setApproval(a);
    setComments(c.comments);
    if (reviewer) setItem((await rpc('gv.review', { cap: 500 }).catch(() => ({ items: [] }))).items.find((i) => i.artifact_id === id) ?? null);
    setCheckpoint(w.checkpoint);
    setKeyRotations(w.key_rotations);
    setHistoryFailures(null);
    setEvents(w.events);
  }, [id]);

  useEffect(() => {
    setBody(null);
    setEvents(null);
    setHistoryFailures(null);
    setApproveAnyway(false);
    setReachedEnd(false);
    setOverFindings(false);
    void (async () => {
      try {
        try {
          setBody(await readPage(0, null));
        } catch {
          // Not served whole to this caller (a reader of another's held row): the preview stands.
          setNode(await rpc('gv.node', { artifact_id: id }));
        }
        await loadSide();
      } catch (e) {
        setError(e);
      }
    })();
  }, [id]);

  // What others do to this row while it is shown (a signature, a promotion, a comment) is
  // shown too: the row follows gv.events, as the queue does, rather than keep what it loaded.
  useEventTail((events) => {
    if (!events.some((e) => e.artifact_id === id)) return;
    void (async () => {
      try {
        await loadSide();
        setNode(await rpc('gv.node', { artifact_id: id }));
      } catch (e) {
        setError(e);
      }
    })();
  });

  const more = async () => {
    if (body === null) return;
    if (body.next === null) {
      // All served: n reads on, a screenful at a time, toward the end that counts the read.
      const box = document.querySelector<HTMLElement>('.row-view pre.body');
      box?.scrollBy({ top: box.clientHeight * 0.9 });
      return;
    }
    try {
      setBody(await readPage(body.next, body));
    } catch (e) {
      setError(e);
    }
  };
  const act = async <T,>(what: string, f: () => Promise<T>, after?: (r: T) => void) => {
    try {
      const r = await f();
      setError(null);
      // Said on this row even when the answer comes after the person moved on: it reports this row.
      onNotice(what, `row/${id}`);
      after?.(r);
      await loadSide();
      setNode(await rpc('gv.node', { artifact_id: id }));
    } catch (e) {
      setError(e);
    }
  };

  const state: string = node?.status.state ?? approval?.state ?? '';
  const held = ['L1_SCANNED', 'L1B_FLAGGED', 'L2_SCORED', 'NEEDS_EVIDENCE'].includes(state);
  const attachmentHashes: string[] = (item?.attachments ?? []).map((a) => a.sha256);
  const bodyServed = body !== null && body.next === null;
  const bodyRead = bodyServed && reachedEnd && (attachmentHashes.length === 0 || attachmentsRead);
  const findings = body?.findings ?? [];
  const heldOver = flagging(findings);
  const veto = approval?.waits_for?.code === 'veto_finding';
  const mine = node?.self_authored === true;
  const canSign = reviewer && held && !mine;
  // A reviewer sends back a row waiting for review unflagged (gv.request_evidence); its writer's evidence returns it.
  const canAskEvidence = canSign && (state === 'L1_SCANNED' || state === 'L2_SCORED');
  const supersededParent: string | undefined =
    node?.supersedes?.artifact_ids?.[0] ?? (node?.relations ?? []).find((r) => r.kind === 'supersedes' && r.direction === 'parent')?.artifact_id;

  const historyFailed = historyFailures !== null && historyFailures > 0;
  // Why Approve is off, in the words its tooltip says; null when it is on.
  const approveOff: string | null = veto
    ? 'a veto-severity finding stands (a live credential): no signature clears it; reject the row, or ask its writer to write it again without the secret'
    : !bodyServed
      ? 'read the whole body first'
      : !reachedEnd
        ? 'scroll the body to its end first'
        : !bodyRead
          ? 'read the attachments too'
          : historyFailures === null
            ? "checking this row's history in your browser"
            : historyFailed && !approveAnyway
              ? "this row's history failed the check in your browser: tick “approve anyway” to approve it"
              : null;

  /** a and the Approve button: straight to the signature, or first to the findings the approval goes over. */
  const approve = () => {
    if (!canSign || approveOff !== null || overFindings) return;
    if (heldOver.length > 0) setOverFindings(true);
    else void sign();
  };
  const sign = () =>
    act('Approved.', () => rpc('gv.sign', { artifact_id: id, decision: 'approve', promote: true }), (r) => {
      if ('promoted' in r && r.promoted) {
        onNotice(`Approved and promoted ${id}.`, 'queue/');
        backToQueue();
      } else if ('waits_for' in r && r.waits_for) onNotice(`Approved; the row still waits for ${r.waits_for.words ?? r.waits_for.blocker}.`, `row/${id}`);
    });

  /** A person's third disposition of a flagged row (docs/review.md): the finding is real, the row stays held. */
  const flagged = state === 'L1B_FLAGGED';
  const confirmFinding = () =>
    act('Finding confirmed: the row stays held.', () => rpc('gv.sign', { artifact_id: id, decision: 'confirm' }));

  const keys: Key[] = [
    { key: 'a', does: 'approve (once the whole body was read and its history checked; over findings, asks again)', run: () => approve() },
    { key: 'n', does: 'read on: the next page of the body, then a screenful at a time', run: () => void more() },
    { key: 'r', does: 'reject (asks the category)', run: () => canSign && setAsking('reject') },
    { key: 'v', does: 'send back to its writer for evidence (asks what is missing)', run: () => canAskEvidence && setAsking('evidence') },
    { key: 'e', does: 'archive', run: () => canSign && void act('Archived.', () => rpc('gv.sign', { artifact_id: id, decision: 'archive' })) },
    { key: 'k', does: 'on a row a finding holds: confirm the finding, keep the row held', run: () => canSign && flagged && void confirmFinding() },
    { key: 'c', does: 'comment', run: () => setAsking('comment') },
    { key: 'u', does: 'back to the queue', run: () => backToQueue() },
    { key: '?', does: 'show these keys', run: () => setHelp(!help) },
    { key: 'Escape', does: 'close', run: () => (setHelp(false), setAsking(null), setOverFindings(false)) },
  ];
  useKeys(keys);

  if (node === null) return error ? <Problem error={error} /> : <p>Loading {id}…</p>;
  return (
    <section aria-label="Row" class="row-view">
      <p>
        <a href={queueHref()}>← queue</a>
      </p>
      <h2>
        <span class="id">{id}</span> <span class="state">{state}</span>
        {/* Served, but promoted by this gate alone: no organization countersigned it yet (docs/review.md, gv.countersign_status). */}
        {node?.status.provisional && (
          <>
            {' '}
            <span class="tag provisional-tag" title="promoted by this gate's review; no organization has countersigned it yet">
              provisional: not countersigned
            </span>
          </>
        )}
      </h2>
      {place.query.get('then') === 'approve' && !bodyRead && <p class="hint">Read the whole body, then press a to approve.</p>}
      <Problem error={error} />
      {historyFailed && (
        <p class="problem sig-alarm">
          This row's history failed the check in your browser (a signature, a link between its events, or an event's place in the signed log): see the events below before you trust or sign
          it.
        </p>
      )}
      {help && <KeyHelp keys={keys} onClose={() => setHelp(false)} />}
      {approval?.waits_for && (
        <p class="waits">
          Waits for <strong>{approval.waits_for.words ?? approval.waits_for.blocker}</strong> ({approval.waits_for.blocker}
          {approval.waits_for.code ? ` · ${approval.waits_for.code}` : ''})
        </p>
      )}
      <h3>Body{body?.masked ? ' (secrets and personal data masked; everything else as written)' : ''}</h3>
      {body === null ? (
        <>
          <pre class="body preview">{node.preview ?? '(no text)'}</pre>
          <p class="hint">Only the preview is served to you.</p>
        </>
      ) : (
        <>
          <MarkedBody text={body.text} findings={findings} complete={body.next === null} onReachedEnd={() => setReachedEnd(true)} />
          {body.next !== null ? (
            <p>
              Read {body.text.length} of {body.chars} characters.{' '}
              <button type="button" onClick={() => void more()}>
                Read the next page (n)
              </button>
            </p>
          ) : !reachedEnd ? (
            <p class="hint read-on">All {body.chars || body.text.length} characters are here: scroll the body to its end (or press n) to finish reading it.</p>
          ) : (
            <p class="read-all">Whole body read.{attachmentHashes.length > 0 && !attachmentsRead ? ' Read the attachments too before approving.' : ''}</p>
          )}
        </>
      )}
      {attachmentHashes.length > 0 && <Attachments artifactId={id} hashes={attachmentHashes} onAllRead={setAttachmentsRead} />}
      {findings.length > 0 && (
        <>
          <h3>Findings</h3>
          <ol class="findings">
            {findings.map((f, n) => (
              <li class={`sev-${f.severity}`}>
                {f.kind} ({f.severity}){f.detail ? `: ${f.detail}` : ''}{' '}
                {outsideBody(f) !== null ? (
                  <span class="where">{outsideBody(f)}</span>
                ) : body !== null && f.start < body.text.length ? (
                  <a href={`#${findingAnchor(n)}`} onClick={(e) => (e.preventDefault(), document.getElementById(findingAnchor(n))?.scrollIntoView({ block: 'center' }))}>
                    line {lineOf(body.text, f.start)}
                  </a>
                ) : (
                  <span class="hint">in a page not read yet</span>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
      {item && item.stances.length > 0 && (
        <>
          <h3>Verdicts</h3>
          <ul class="stances">
            {item.stances.map((v) => (
              <li>
                {v.stance}: {v.decision ?? 'no verdict'}
                {v.score !== undefined && v.score !== null ? ` · score ${v.score}` : ''}
                {v.model_label ? ` · ${v.model_label}` : ''}
                {v.last_run ? ` · last run ${v.last_run.state}${v.last_run.failure ? ` (${v.last_run.failure})` : ''}` : ''}
              </li>
            ))}
          </ul>
        </>
      )}
      {canSign && (
        <div class="actions">
          <button type="button" class="approve" disabled={approveOff !== null} title={approveOff ?? ''} onClick={() => void approve()}>
            Approve (a)
          </button>{' '}
          <button type="button" onClick={() => setAsking('reject')}>
            Reject (r)
          </button>{' '}
          {canAskEvidence && (
            <>
              <button type="button" class="needs-evidence" onClick={() => setAsking('evidence')}>
                Needs evidence (v)
              </button>{' '}
            </>
          )}
          <button type="button" onClick={() => void act('Archived.', () => rpc('gv.sign', { artifact_id: id, decision: 'archive' }))}>
            Archive (e)
          </button>
          {flagged && (
            <>
              {' '}
              <button type="button" class="confirm-finding" title="the finding is real: the row stays held, and says a person confirmed it" onClick={() => void confirmFinding()}>
                Confirm finding, keep held (k)
              </button>
            </>
          )}
          {veto && <p class="problem veto-why">Approve is off: {approveOff}.</p>}
          {historyFailed && (
            <label class="approve-anyway">
              <input type="checkbox" checked={approveAnyway} onChange={(e) => setApproveAnyway((e.currentTarget as HTMLInputElement).checked)} /> Approve anyway: I have
              looked at the failed checks in the events below
            </label>
          )}
        </div>
      )}
      {overFindings && body !== null && (
        <ApproveOverFindings
          findings={heldOver}
          all={findings}
          text={body.text}
          onCancel={() => setOverFindings(false)}
          onApprove={() => {
            setOverFindings(false);
            void sign();
          }}
        />
      )}
      {mine && held && (
        <div class="actions">
          <button type="button" onClick={() => void act('Asked the reviewers to sign.', () => rpc('gv.ask_to_sign', { artifact_id: id }))}>
            Ask to sign
          </button>{' '}
          <button type="button" onClick={() => void act('Cancelled.', () => rpc('gv.cancel', { artifact_id: id, reason: 'cancelled from the console' }))}>
            Cancel my row
          </button>
        </div>
      )}
      {reviewer && state === 'REJECTED' && !mine && (
        <div class="actions">
          <button type="button" onClick={() => void act('Reopened.', () => rpc('gv.reopen', { artifact_id: id, reason: 'reopened from the console' }))}>
            Reopen
          </button>
        </div>
      )}
      {reviewer && <RowTools id={id} state={state} act={act} />}
      {asking === 'reject' && (
        <RejectForm
          onCancel={() => setAsking(null)}
          onReject={(category, reason) => {
            setAsking(null);
            void act('Rejected.', () => rpc('gv.sign', { artifact_id: id, decision: 'reject', category, ...(reason ? { reason } : {}) }));
          }}
        />
      )}
      {asking === 'evidence' && (
        <EvidenceForm
          onCancel={() => setAsking(null)}
          onSend={(reason) => {
            setAsking(null);
            void act('Sent back to its writer for evidence.', () => rpc('gv.request_evidence', { artifact_id: id, reason }));
          }}
        />
      )}
      {node.evidence && <EvidenceRequests requests={node.evidence} mine={mine} waiting={state === 'NEEDS_EVIDENCE'} />}
      {approval && <Approval approval={approval} />}
      <h3>Comments</h3>
      <ol class="thread">
        {comments.map((c) => (
          <li data-event={c.event_id}>
            <Person identity={c.author} /> <span class="kind">{c.kind}</span>
            {c.audience === 'people' && <span class="tag audience">people only</span>}
            {c.held && (
              <span class="tag held" title={c.scan_findings.map((f) => `${f.kind} (${f.severity})`).join('\n')}>
                held by the scanner
              </span>
            )}
            : <span class="text">{c.body ?? (c.held ? '(held: served to reviewers who are people and to its author)' : '')}</span>{' '}
            {c.author === you.identity && (
              <button type="button" class="link" onClick={() => void act('Comment retracted.', () => rpc('gv.comment_retract', { artifact_id: id, event_id: c.event_id }))}>
                retract
              </button>
            )}
          </li>
        ))}
      </ol>
      <CommentForm
        key={asking === 'comment' ? 'asked' : 'idle'}
        {...(asking === 'comment' ? { onCancel: () => setAsking(null) } : {})}
        onPost={(text, kind, audience) => {
          setAsking(null);
          void act(audience === 'people' ? 'Comment posted for people only.' : 'Comment posted.', () =>
            rpc('gv.comment', { artifact_id: id, body: text, kind, ...(audience === 'people' ? { audience } : {}) }),
          );
        }}
      />
      {node.relations && node.relations.length > 0 && (
        <>
          <h3>Relations</h3>
          <ul>
            {node.relations.map((r) => (
              <li>
                {r.direction === 'parent' ? `${r.kind}` : `${r.kind} by`}{' '}
                <a class="id" href={`#/row/${encodeURIComponent(r.artifact_id)}`}>
                  {r.artifact_id}
                </a>{' '}
                {r.state}
              </li>
            ))}
          </ul>
        </>
      )}
      {supersededParent && bodyRead && (
        <>
          <h3>Against the row it supersedes</h3>
          <SupersessionDiff parentId={supersededParent} childText={body!.text} />
        </>
      )}
      {events !== null && <EventHistory events={events} checkpoint={checkpoint} keyRotations={keyRotations} deploymentId={deploymentId} onFailures={setHistoryFailures} />}
    </section>
  );
}

/**
 * Whether a signature counts, in words that do not contradict the status above it: a
 * signature its signer replaced by a later one is said to be replaced (not "does not count"
 * beside the later one that counts), and an organization's countersign is counted apart from
 * k, never "does not count" under a status "countersigned".
 */
function signerCounts(signers: VerbAnswer<'gv.approval'>['signers'], i: number): string {
  const s = signers[i]!;
  if (s.counts) return 'counts';
  if (s.class === 'authority') return s.decision === 'countersign' ? "the organization's countersign (counted apart from k)" : "the organization's decision";
  const later = signers.slice(i + 1).find((o) => o.identity === s.identity && (s.class !== 'model' || o.stance === s.stance));
  if (later !== undefined) return `replaced by their later ${later.decision}`;
  return `does not count${s.why ? `: ${s.why}` : ''}`;
}

function Approval({ approval: a }: { approval: VerbAnswer<'gv.approval'> }) {
  return (
    <>
      <h3>Approval</h3>
      <p>
        {a.status}: {a.k_have} of {a.k_required} signatures, {a.people_have} of {a.people_required} people.
      </p>
      {a.signers.length > 0 && (
        <table class="signers">
          <tbody>
            {a.signers.map((s, i) => (
              <tr>
                <td>
                  <Person identity={s.identity} />
                </td>
                <td>{s.class}</td>
                <td>
                  {s.decision}
                  {s.stance ? ` (${s.stance})` : ''}
                </td>
                <td>{signerCounts(a.signers, i)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** The row's requests for evidence (served to its writer and reviewers), each with what answered it. */
function EvidenceRequests({ requests, mine, waiting }: { requests: NonNullable<VerbAnswer<'gv.node'>['evidence']>; mine: boolean; waiting: boolean }) {
  return (
    <>
      <h3>Evidence</h3>
      {waiting && mine && <p class="hint">A reviewer sent your row back: attach the evidence with gv.add_evidence (gate call, or your agent) and it returns to review.</p>}
      <ol class="evidence">
        {requests.map((r) => (
          <li data-event={r.event_id}>
            <Person identity={r.by ?? 'deployment'} /> asked: <q class="asks">{r.asks}</q>{' '}
            {r.answered === null ? (
              <span class="tag waiting">waiting for its writer</span>
            ) : (
              <span class="answered">
                answered with {r.answered.attachments.map((a) => a.name ?? a.sha256.slice(0, 23)).join(', ')}
              </span>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}
