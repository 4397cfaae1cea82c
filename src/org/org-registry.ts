import type { OrgVerb } from './define-org-verb.js';
import { orgMembersVerb, orgPeopleVerb } from './directory-verbs.js';
import { orgDescribeVerb } from './org-describe.js';
import { orgOutcomesVerb } from './outcomes-verb.js';
import { orgInboxVerb, orgReviewVerb, orgTakeVerb } from './review-verbs.js';
import { orgSubmissionVerb } from './submission-verb.js';

/** The organization gate's /rpc verbs, each with its own type (the org's console types its calls from these). */
export const DECLARED_ORG_VERBS = [orgDescribeVerb, orgInboxVerb, orgTakeVerb, orgReviewVerb, orgSubmissionVerb, orgOutcomesVerb, orgMembersVerb, orgPeopleVerb] as const;

/** The same verbs by name: the only list (gv.describe and the dispatcher read it). */
export const ORG_VERBS: ReadonlyMap<string, OrgVerb> = new Map((DECLARED_ORG_VERBS as readonly OrgVerb[]).map((v) => [v.name, v]));
