import { when } from '../when.js';
import type { OrgVerbAnswer } from './org-rpc.js';

export type Item = OrgVerbAnswer<'gv.org_inbox'>['items'][number];

/**
 * How this person's decision on a submission counts, said before any button: not at all when
 * they acted on the row at the member (a second authority is a second person), or only with
 * others' when the organization cannot tell them apart from the member's people; and the
 * decisions that wait for more people.
 */
export function StandingNote({ item, you }: { item: Pick<Item, 'standing' | 'waiting'>; you: string }) {
  return (
    <>
      {item.standing.says !== null && (
        <p class={`standing standing-${item.standing.counts}`} data-counts={item.standing.counts} role="note">
          {item.standing.says}
        </p>
      )}
      {item.waiting.map((w) => (
        <p class="waiting-decision hint" data-by={w.by} data-decision={w.decision}>
          {w.by === you ? 'You' : <span class="id">{w.by}</span>} decided {w.decision} on {when(w.ts)}: it waits for {w.still_needed === 1 ? 'one more person' : `${w.still_needed} more people`} to{' '}
          {w.decision} too.
        </p>
      ))}
    </>
  );
}
