-- Many workers: who runs a job now and since when (held_by, held_since: a worker marks the job as
-- its run begins and clears it as the run ends), the installation a job came through, and an index
-- on the time of events for the day's spend a per-day cap reads. booty_append keeps its signature
-- and now writes the installation a job's first append names; a worker of the release before,
-- whose appends name none, leaves it null. Additive only: the release before runs on this schema.

ALTER TABLE jobs ADD COLUMN held_by text;
ALTER TABLE jobs ADD COLUMN held_since bigint;
ALTER TABLE jobs ADD COLUMN installation bigint;
CREATE INDEX events_at ON events (at);

CREATE OR REPLACE FUNCTION booty_append(
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
                        installation, created_at, updated_at)
      VALUES (p_stream, p_job->>'repo', (p_job->>'issue')::integer, p_job->>'state',
              (p_job->>'attempts')::integer, (p_job->>'final')::boolean, p_job->>'outcome',
              (p_job->>'tokens')::bigint, p_expected + n, p_job->>'branch', (p_job->>'pr')::integer,
              (p_job->>'installation')::bigint, p_at, p_at)
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
