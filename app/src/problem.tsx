import { useState } from 'preact/hooks';
import { RpcError } from './rpc.js';

/** What a refusal means, in a sentence a person reads; the verb's code and reason stay one click away. */
export function sentence(error: unknown): string {
  if (!(error instanceof RpcError)) return error instanceof Error ? error.message : String(error);
  const w = error.data?.['waits_for'];
  if (error.code === -32010 && w) {
    const missing = w.missing ? ` (${Object.entries(w.missing).map(([k, v]) => `${v} more ${k}`).join(', ')})` : '';
    return `Not yet: this row waits for ${w.words ?? w.blocker}${missing}.`;
  }
  switch (error.data?.['reason']) {
    case 'body_unread':
      return 'Read the whole body before signing: your approval counts only once every page was served to you.';
    case 'attachments_unread':
      return 'Read every attachment to its end before signing.';
    case 'self_authored':
      return 'You wrote this row, so you cannot sign it.';
    case 'away':
      return 'The operator is away: nothing is promoted until they are back.';
  }
  if (error.code === -32001) return 'You may not do this with your role.';
  return error.message;
}

export function Problem({ error }: { error: unknown }) {
  const [open, setOpen] = useState(false);
  if (error === null || error === undefined) return null;
  const detail = error instanceof RpcError ? `${error.verb}: code ${error.code}${error.data?.['reason'] ? `, reason ${error.data['reason']}` : ''} — ${error.message}` : null;
  return (
    <p class="problem" role="alert">
      {sentence(error)}{' '}
      {detail !== null && (
        <button type="button" class="link" onClick={() => setOpen(!open)}>
          {open ? 'hide details' : 'details'}
        </button>
      )}
      {open && <code class="detail">{detail}</code>}
    </p>
  );
}
