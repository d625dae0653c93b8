-- The jobs API's tokens (`booty token create`): the hash of each, never the token itself.
CREATE TABLE api_tokens (
  id text PRIMARY KEY,
  name text NOT NULL,
  scope text NOT NULL CHECK (scope IN ('read', 'write')),
  hash text NOT NULL UNIQUE,
  created_at bigint NOT NULL,
  revoked_at bigint
);
