-- The first schema: the log, its global position, the jobs read model, deliveries and the write
-- probe. Payloads are kept as the JSON text written, not jsonb: the hash chain covers that text,
-- and jsonb would reorder keys (cast to json to query them).

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

-- One append in one statement, all or nothing: the delivery (a repeat writes nothing and answers
-- duplicate), the global positions, the version check, the rows, the jobs read model. Run on the
-- server, it holds event_head's lock through no network round trip, only its work and the commit.
-- It raises BT409 when the stream is not at the expected version, BT400 for a job without a repo.
CREATE FUNCTION booty_append(
  p_stream text, p_expected integer, p_at bigint,
  p_types text[], p_schema_versions integer[], p_data text[], p_states text[], p_metas text[],
  p_hashes bytea[], p_job json, p_delivery json
) RETURNS TABLE (was_duplicate boolean, new_version integer, last_position bigint)
LANGUAGE plpgsql AS $$
DECLARE
  n integer := cardinality(p_types);
  last bigint;
BEGIN
  IF p_delivery IS NOT NULL THEN
    INSERT INTO deliveries (delivery_id, event, action, outcome, job_id, received_at)
    VALUES (p_delivery->>'deliveryId', p_delivery->>'event', p_delivery->>'action',
            p_delivery->>'outcome', p_delivery->>'jobId', p_at)
    ON CONFLICT (delivery_id) DO NOTHING;
    IF NOT FOUND THEN
      RETURN QUERY SELECT true, COALESCE(max(e.version), 0), 0::bigint FROM events e WHERE e.stream_id = p_stream;
      RETURN;
    END IF;
  END IF;

  UPDATE event_head h SET position = h.position + n RETURNING h.position INTO last;
  -- After the lock: every other append has committed or not begun, so this check is exact.
  IF (SELECT COALESCE(max(e.version), 0) FROM events e WHERE e.stream_id = p_stream) <> p_expected THEN
    RAISE EXCEPTION 'stream % is not at version %', p_stream, p_expected USING ERRCODE = 'BT409';
  END IF;
  INSERT INTO events (position, stream_id, version, type, schema_version, data, state, meta, at, hash)
  SELECT last - n + r.i, p_stream, p_expected + r.i, r.type, r.schema_version, r.data, r.state, r.meta, p_at, r.hash
  FROM unnest(p_types, p_schema_versions, p_data, p_states, p_metas, p_hashes)
    WITH ORDINALITY AS r(type, schema_version, data, state, meta, hash, i);

  IF p_job IS NOT NULL THEN
    IF p_job->>'repo' IS NOT NULL AND p_job->>'issue' IS NOT NULL THEN
      INSERT INTO jobs (job_id, repo, issue, state, attempts, final, outcome, tokens, version, branch, pr,
                        created_at, updated_at)
      VALUES (p_stream, p_job->>'repo', (p_job->>'issue')::integer, p_job->>'state',
              (p_job->>'attempts')::integer, (p_job->>'final')::boolean, p_job->>'outcome',
              (p_job->>'tokens')::bigint, p_expected + n, p_job->>'branch', (p_job->>'pr')::integer, p_at, p_at)
      ON CONFLICT (job_id) DO UPDATE SET state = excluded.state, attempts = excluded.attempts,
        final = excluded.final, outcome = excluded.outcome, tokens = excluded.tokens,
        version = excluded.version, branch = COALESCE(excluded.branch, jobs.branch),
        pr = COALESCE(excluded.pr, jobs.pr), updated_at = excluded.updated_at;
    ELSE
      UPDATE jobs SET state = p_job->>'state', attempts = (p_job->>'attempts')::integer,
        final = (p_job->>'final')::boolean, outcome = p_job->>'outcome', tokens = (p_job->>'tokens')::bigint,
        version = p_expected + n, branch = COALESCE(p_job->>'branch', branch),
        pr = COALESCE((p_job->>'pr')::integer, pr), updated_at = p_at
      WHERE job_id = p_stream;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'the first append to job % must name its repo and issue', p_stream USING ERRCODE = 'BT400';
      END IF;
    END IF;
  END IF;
  RETURN QUERY SELECT false, p_expected + n, last;
END
$$;
