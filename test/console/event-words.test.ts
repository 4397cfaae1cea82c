import { describe, expect, it } from 'vitest';
import { whatHappened } from '../../app/src/event-words.js';

// The console's words for an event beside its journal type (app/src/event-words.ts): a
// ratify that sends a row back for evidence is said as a request, never a ratification.

describe('whatHappened', () => {
  it('says a ratify into NEEDS_EVIDENCE asked for evidence, and one into L3_RATIFIED ratified', () => {
    expect(whatHappened({ type: 'ratify', enters: 'NEEDS_EVIDENCE' })).toBe('asked for evidence');
    expect(whatHappened({ type: 'ratify', enters: 'L3_RATIFIED' })).toBe('ratified: waits for a countersign');
  });

  it("says a signature's decision as done, and leaves other types as the journal names them", () => {
    expect(whatHappened({ type: 'manual-sign', enters: 'REJECTED', decision: 'reject' })).toBe('rejected');
    expect(whatHappened({ type: 'disposition', enters: 'L2_SCORED', decision: 'approve' })).toBe('approved');
    expect(whatHappened({ type: 'manual-sign', enters: 'ARCHIVED', decision: 'archive' })).toBe('archived');
    expect(whatHappened({ type: 'countersign', enters: null })).toBe('countersigned by the organization');
    expect(whatHappened({ type: 'ingest', enters: 'L0_RECEIVED' })).toBe('ingest');
  });
});
