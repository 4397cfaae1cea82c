import { FindingsList } from '../findings-list.js';
import { MarkedBody } from '../marked-body.js';
import type { OrgVerbAnswer } from './org-rpc.js';

export type PersonsCopy = NonNullable<OrgVerbAnswer<'gv.org_submission'>['copy']>;

/**
 * A submission's content as a person reads it at the gate: decoded, secrets and personal data
 * masked by the org (an injection shown as the text it is), each finding marked in the body
 * and listed with a link to its line. Content that is not text (an archive) says so.
 */
export function PersonsCopyView({ copy, sizeBytes, anchors }: { copy: PersonsCopy | null; sizeBytes: unknown; anchors: string }) {
  if (copy === null) return <p class="hint not-text">The content is not text ({String(sizeBytes)} bytes): nothing to show here; its hash is checked below.</p>;
  return (
    <>
      <MarkedBody text={copy.text} findings={copy.findings} complete={true} onReachedEnd={() => {}} anchors={anchors} />
      {copy.findings.length > 0 ? (
        <>
          <h4>Findings</h4>
          <FindingsList findings={copy.findings} text={copy.text} anchors={anchors} />
        </>
      ) : (
        <p class="hint no-findings">The scanner ({copy.scanner}) found nothing in it.</p>
      )}
    </>
  );
}
