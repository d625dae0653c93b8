// The first schema: the log, its global position, the jobs read model, deliveries and the write
// probe. Payloads are kept as the JSON text written, not jsonb: the hash chain covers that text,
// and jsonb would reorder keys (cast to json to query them).

export default `
CREATE TABLE events (
  position bigint PRIMARY KEY,
  stream_id text NOT NULL,
  version integer NOT NULL,
  type text NOT NULL,
  schema_version integer NOT NULL,
  data text NOT NULL,
  state text,
  meta text NOT NULL,
  at bigint NOT NULL,
  hash bytea NOT NULL,
  CONSTRAINT events_stream_version UNIQUE (stream_id, version)
);

-- The last global position handed out. Its one row is locked by every append until it commits,
-- so positions become visible in the order they were given (postgres-event-store.ts).
CREATE TABLE event_head (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  position bigint NOT NULL
);
INSERT INTO event_head (position) VALUES (0);

CREATE TABLE jobs (
  job_id text PRIMARY KEY,
  repo text NOT NULL,
  issue integer NOT NULL,
  state text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  final boolean NOT NULL DEFAULT false,
  outcome text,
  tokens bigint NOT NULL DEFAULT 0,
  version integer NOT NULL,
  branch text,
  pr integer,
  reported_version integer NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX jobs_by_issue ON jobs (repo, issue, final);
CREATE INDEX jobs_unfinished ON jobs (final, created_at);
CREATE INDEX jobs_by_pr ON jobs (repo, pr, final);
CREATE INDEX jobs_by_branch ON jobs (repo, branch, final);

CREATE TABLE deliveries (
  delivery_id text PRIMARY KEY,
  event text NOT NULL,
  action text,
  outcome text NOT NULL,
  job_id text,
  received_at bigint NOT NULL
);

-- Where probeWritable commits a write the size of a large event; stored uncompressed, so its
-- bytes reach the disk.
CREATE TABLE write_probe (data bytea);
ALTER TABLE write_probe ALTER COLUMN data SET STORAGE EXTERNAL;
`;
