/**
 * What one health check found among the checked rows. `flagged` keeps the checked order
 * (newest promotion first). `stoppedAtBound` says the check itself gave up early (a
 * neighbour or time bound), so its count is a floor; `whyNot` says what it could not
 * look at, and then `computed` is false.
 */
export interface Finding {
  flagged: string[];
  stoppedAtBound?: boolean;
  whyNot?: string;
}

/** A finding as gv.health serves it: the count in full, at most `limit` ids. */
export function checkAnswer(finding: Finding, limit: number, rowsTruncated: boolean) {
  return {
    count: finding.flagged.length,
    at_least: rowsTruncated || finding.stoppedAtBound === true || finding.whyNot !== undefined,
    artifact_ids: finding.flagged.slice(0, limit),
    computed: finding.whyNot === undefined,
    ...(finding.whyNot === undefined ? {} : { why_not: finding.whyNot }),
  };
}
