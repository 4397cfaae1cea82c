/**
 * The organization gate's first schema. Everything the org processes share lives here;
 * a process keeps nothing another process needs.
 */
export const MIGRATION_001 = `
CREATE TABLE org_meta (
  key text PRIMARY KEY,
  value text NOT NULL
);

-- Member gates, named by their deployment id (the base64url Ed25519 public key).
CREATE TABLE members (
  deployment_id text PRIMARY KEY,
  label text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

-- Keys the organization issued: only the sha256 of the key is stored.
-- scope submit belongs to one member; review and admin to the org's own people.
CREATE TABLE org_keys (
  key_hash text PRIMARY KEY,
  key_id text NOT NULL UNIQUE,
  scope text NOT NULL CHECK (scope IN ('submit', 'review', 'admin')),
  deployment_id text REFERENCES members (deployment_id),
  label text NOT NULL,
  issued_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  CHECK ((scope = 'submit') = (deployment_id IS NOT NULL))
);

-- The inbox: one row per (member, artifact). state leased = taken into the org's inbox,
-- waiting for a decision; held = a reviewer holds it until held_until; then decided.
CREATE TABLE submissions (
  deployment_id text NOT NULL REFERENCES members (deployment_id),
  artifact_id text NOT NULL,
  submission_id text NOT NULL,
  trust_class text NOT NULL,
  body text NOT NULL,
  state text NOT NULL CHECK (state IN ('leased', 'held', 'countersigned', 'refused')),
  attempts integer NOT NULL DEFAULT 1,
  received_at timestamptz NOT NULL DEFAULT now(),
  held_by text,
  held_until timestamptz,
  decided_at timestamptz,
  PRIMARY KEY (deployment_id, artifact_id)
);
CREATE INDEX submissions_open ON submissions (received_at) WHERE state IN ('leased', 'held');

-- The org's own log: hash-chained and signed as the gate's journal is (envelope v1).
CREATE TABLE org_log (
  seq bigint PRIMARY KEY,
  event_id text NOT NULL UNIQUE,
  prev text,
  type text NOT NULL,
  body text NOT NULL,
  sig text NOT NULL
);

-- Signed, content-free outcome lines; seq is the org log seq of the decision (the cursor).
CREATE TABLE outcomes (
  seq bigint PRIMARY KEY REFERENCES org_log (seq),
  deployment_id text NOT NULL,
  artifact_id text NOT NULL,
  line text NOT NULL,
  UNIQUE (deployment_id, artifact_id)
);
CREATE INDEX outcomes_member ON outcomes (deployment_id, seq);

-- Per-member request counts in one-second windows (429), shared by every org process.
CREATE TABLE member_rate (
  deployment_id text NOT NULL,
  window_s bigint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (deployment_id, window_s)
);
`;
