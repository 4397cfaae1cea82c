import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { REJECT_CATEGORIES, type RejectCategory } from '../../src/domain/rejection-reasons.js';
import type { VerbParams } from '../../src/verbs/verb-types.js';

/** The kinds a person posts from here; a resolution replies to a comment, which this form does not. */
const COMMENT_KINDS = ['note', 'question', 'objection'] as const satisfies ReadonlyArray<NonNullable<VerbParams<'gv.comment'>['kind']>>;
export type CommentKind = (typeof COMMENT_KINDS)[number];

/** A one-line form over the row or queue: Escape or Cancel closes it, submitting hands it on. */
function InlineForm({ label, submit, ready = true, onSubmit, onCancel, children }: { label: string; submit: string; ready?: boolean; onSubmit: () => void; onCancel: () => void; children: ComponentChildren }) {
  return (
    <form
      class="inline-form"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) onSubmit();
      }}
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
    >
      {children}{' '}
      <button type="submit" disabled={!ready}>
        {submit}
      </button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/**
 * A rejection asks its category (served in the event) and a reason (journal only). The
 * organization's refusal (`act` Refuse) needs the reason: its member is told only the
 * category, so the reason is the org's one record of why.
 */
export function RejectForm({
  onReject,
  onCancel,
  act = 'Reject',
  reasonRequired = false,
}: {
  onReject: (category: RejectCategory, reason: string) => void;
  onCancel: () => void;
  act?: string;
  reasonRequired?: boolean;
}) {
  const [category, setCategory] = useState<RejectCategory>('quality');
  const [reason, setReason] = useState('');
  const [unsaid, setUnsaid] = useState(false);
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <InlineForm label={act} submit={act} onSubmit={() => (reasonRequired && reason.trim() === '' ? setUnsaid(true) : onReject(category, reason))} onCancel={onCancel}>
      <label>
        Category{' '}
        <select ref={first} name="category" value={category} onChange={(e) => setCategory((e.target as HTMLSelectElement).value as RejectCategory)}>
          {REJECT_CATEGORIES.map((c) => (
            <option value={c}>{c}</option>
          ))}
        </select>
      </label>{' '}
      <label>
        Reason <input name="reason" value={reason} onInput={(e) => (setReason((e.target as HTMLInputElement).value), setUnsaid(false))} placeholder="kept in the journal" />
      </label>
      {unsaid && (
        <p class="problem" role="alert">
          Say why: a refusal needs a reason.
        </p>
      )}
    </InlineForm>
  );
}

/**
 * Sending a row back for evidence asks what is missing: the words go to the row's writer
 * (gv.request_evidence's reason), so, unlike a rejection's, they are required.
 */
export function EvidenceForm({ onSend, onCancel }: { onSend: (reason: string) => void; onCancel: () => void }) {
  const [reason, setReason] = useState('');
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <InlineForm label="Needs evidence" submit="Send back" ready={reason.trim() !== ''} onSubmit={() => onSend(reason.trim())} onCancel={onCancel}>
      <label>
        Evidence missing{' '}
        <input ref={first} name="reason" required maxLength={500} size={48} value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} placeholder="what the writer should add; shown to them" />
      </label>
    </InlineForm>
  );
}

/** Who reads a comment: everyone who reads the row, or (a note only) signed-in people alone. */
export type CommentAudience = 'all' | 'people';

export function CommentForm({ onPost, onCancel }: { onPost: (body: string, kind: CommentKind, audience: CommentAudience) => void; onCancel?: () => void }) {
  const [body, setBody] = useState('');
  const [kind, setKind] = useState<CommentKind>('note');
  const [audience, setAudience] = useState<CommentAudience>('all');
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (onCancel) area.current?.focus();
  }, []);
  return (
    <form
      class="inline-form comment-form"
      aria-label="Comment"
      onSubmit={(e) => {
        e.preventDefault();
        if (body.trim() === '') return;
        onPost(body, kind, kind === 'note' ? audience : 'all');
        setBody('');
      }}
      onKeyDown={(e) => e.key === 'Escape' && onCancel?.()}
    >
      <textarea ref={area} name="comment" rows={2} value={body} onInput={(e) => setBody((e.target as HTMLTextAreaElement).value)} placeholder="Comment" />
      <select name="kind" value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value as CommentKind)}>
        {COMMENT_KINDS.map((k) => (
          <option value={k}>{k}</option>
        ))}
      </select>{' '}
      <select
        name="audience"
        aria-label="Who reads it"
        title={kind === 'note' ? '' : 'only a note can be kept to people'}
        disabled={kind !== 'note'}
        value={kind === 'note' ? audience : 'all'}
        onChange={(e) => setAudience((e.target as HTMLSelectElement).value as CommentAudience)}
      >
        <option value="all">everyone who reads the row</option>
        <option value="people">people only (no agent reads it)</option>
      </select>{' '}
      <button type="submit">Post</button>
      {onCancel && (
        <>
          {' '}
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </>
      )}
    </form>
  );
}
