/**
 * Each member's journal as its submissions show it: the event id the member signed at each
 * seq it has shown (its ingest, promotion and decision events, the events they name as prev,
 * its key rotations). One deployment showing two ids at one seq runs two chains (a copy of
 * its home started beside the original): member_forks keeps the first such seq seen.
 */
export const MIGRATION_004 = `
CREATE TABLE member_events (
  deployment_id text NOT NULL REFERENCES members (deployment_id),
  seq bigint NOT NULL,
  event_id text NOT NULL,
  PRIMARY KEY (deployment_id, seq)
);
CREATE TABLE member_forks (
  deployment_id text NOT NULL REFERENCES members (deployment_id),
  seq bigint NOT NULL,
  known_event_id text NOT NULL,
  offered_event_id text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (deployment_id, seq)
);
`;
