import type { OrgVerb } from './define-org-verb.js';
import { orgDescribeVerb } from './org-describe.js';
import { orgInboxVerb, orgReviewVerb } from './review-verbs.js';

/** The organization gate's /rpc verbs: its only list (gv.describe reads it). */
export const ORG_VERBS: ReadonlyMap<string, OrgVerb> = new Map(
  ([orgDescribeVerb, orgInboxVerb, orgReviewVerb] as OrgVerb[]).map((v) => [v.name, v]),
);
