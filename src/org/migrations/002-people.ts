/**
 * The organization's people: roles of signed-in people (by their issuer and subject), as the
 * gate's people table holds them. A person listed nowhere is a reader, or an admin when
 * [auth].admins names them.
 */
export const MIGRATION_002 = `
CREATE TABLE org_people (
  iss text NOT NULL,
  sub text NOT NULL,
  role text NOT NULL CHECK (role IN ('reader', 'reviewer', 'admin')),
  assigned_by text NOT NULL,
  assigned_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (iss, sub)
);
`;
