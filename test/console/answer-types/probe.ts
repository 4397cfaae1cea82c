// Compiled, never run, by test/console/answer-types.test.ts with the console's own compiler
// settings. Each `@ts-expect-error` must find its error: if the console's rpc() stopped typing
// a verb's params and answer from the verb's declaration (an `any` anywhere on the way), the
// line would compile, the directive would go unused, and the check fails.
import { rpc } from '../../../app/src/rpc.js';
import type { ReviewItem } from '../../../app/src/queue.js';
import type { WhyEvent } from '../../../app/src/event-check.js';

export async function probe(item: ReviewItem, event: WhyEvent): Promise<void> {
  const id: string = item.artifact_id;
  const seq: number = event.seq;
  // @ts-expect-error gv.review's rows carry a preview and no `content` (the console once read one).
  void item.content;
  // @ts-expect-error an event's seq is a number, not text.
  const wrong: string = event.seq;
  const approval = await rpc('gv.approval', { artifact_id: id });
  const decisions: string[] = approval.signers.map((s) => s.decision);
  // @ts-expect-error approval signers carry `why`, not `why_not` (the console once read it).
  void approval.signers[0]?.why_not;
  // @ts-expect-error no such verb.
  await rpc('gv.no_such_verb', {});
  // @ts-expect-error gv.sign's decision is a closed word.
  await rpc('gv.sign', { artifact_id: id, decision: 'maybe' });
  void [seq, wrong, decisions];
}
