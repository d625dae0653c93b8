// The PostgreSQL store's statements, each prepared once per connection under its name.

const statement = (name: string, text: string) => ({ name: `booty-${name}`, text });

export const q = {
  recordDelivery: statement(
    'record-delivery',
    `INSERT INTO deliveries (delivery_id, event, action, outcome, job_id, received_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (delivery_id) DO NOTHING`,
  ),
  // In key order, so two batches sharing keys take their row locks in the same order.
  recordDeliveries: statement(
    'record-deliveries',
    `INSERT INTO deliveries (delivery_id, event, action, outcome, job_id, received_at)
     SELECT d.*, $6::bigint
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS d(delivery_id, event, action, outcome, job_id)
     ORDER BY d.delivery_id
     ON CONFLICT (delivery_id) DO NOTHING RETURNING delivery_id`,
  ),
  // The head row stays locked until the transaction ends: appends take turns from here to COMMIT.
  takePositions: statement(
    'take-positions',
    'UPDATE event_head SET position = position + $1 RETURNING position',
  ),
  // Inserts only when the stream is at the expected version; run after takePositions, so no other
  // append can commit to the stream between this check and the COMMIT.
  insertEvents: statement(
    'insert-events',
    `INSERT INTO events (position, stream_id, version, type, schema_version, data, state, meta, at, hash)
     SELECT $1::bigint + e.n, $2, $3::integer + e.n, e.type, e.schema_version, e.data, e.state, e.meta, $4, e.hash
     FROM unnest($5::text[], $6::integer[], $7::text[], $8::text[], $9::text[], $10::bytea[])
       WITH ORDINALITY AS e(type, schema_version, data, state, meta, hash, n)
     WHERE (SELECT COALESCE(max(version), 0) FROM events WHERE stream_id = $2) = $3`,
  ),
  version: statement('version', 'SELECT COALESCE(max(version), 0) AS v FROM events WHERE stream_id = $1'),
  hashAt: statement('hash-at', 'SELECT hash FROM events WHERE stream_id = $1 AND version = $2'),
  readStream: statement(
    'read-stream',
    'SELECT * FROM events WHERE stream_id = $1 AND version BETWEEN $2 AND $3 ORDER BY version',
  ),
  readAll: statement('read-all', 'SELECT * FROM events WHERE position > $1 ORDER BY position LIMIT $2'),
  upsertJob: statement(
    'upsert-job',
    `INSERT INTO jobs (job_id, state, attempts, final, outcome, tokens, version, branch, pr, created_at, updated_at, repo, issue)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12)
     ON CONFLICT (job_id) DO UPDATE SET state = excluded.state, attempts = excluded.attempts,
       final = excluded.final, outcome = excluded.outcome, tokens = excluded.tokens,
       version = excluded.version, branch = COALESCE(excluded.branch, jobs.branch),
       pr = COALESCE(excluded.pr, jobs.pr), updated_at = excluded.updated_at`,
  ),
  updateJob: statement(
    'update-job',
    `UPDATE jobs SET state = $2, attempts = $3, final = $4, outcome = $5, tokens = $6, version = $7,
       branch = COALESCE($8, branch), pr = COALESCE($9, pr), updated_at = $10
     WHERE job_id = $1`,
  ),
  getJob: statement('get-job', 'SELECT * FROM jobs WHERE job_id = $1'),
  listJobs: statement('list-jobs', 'SELECT * FROM jobs ORDER BY created_at, job_id'),
  listUnfinished: statement(
    'list-unfinished',
    'SELECT * FROM jobs WHERE NOT final ORDER BY created_at, job_id',
  ),
  activeForIssue: statement(
    'active-for-issue',
    'SELECT * FROM jobs WHERE repo = $1 AND issue = $2 AND NOT final ORDER BY created_at LIMIT 1',
  ),
  activeForPr: statement(
    'active-for-pr',
    `SELECT * FROM jobs WHERE repo = $1 AND NOT final AND (pr = $2 OR branch = $3)
     ORDER BY created_at DESC LIMIT 1`,
  ),
  forIssue: statement(
    'for-issue',
    'SELECT * FROM jobs WHERE repo = $1 AND issue = $2 ORDER BY created_at, job_id',
  ),
  unreported: statement(
    'unreported',
    'SELECT * FROM jobs WHERE reported_version < version ORDER BY created_at',
  ),
  markReported: statement(
    'mark-reported',
    'UPDATE jobs SET reported_version = GREATEST(reported_version, $2) WHERE job_id = $1',
  ),
  markDamaged: statement(
    'mark-damaged',
    "UPDATE jobs SET state = 'damaged', final = true, outcome = 'damaged', updated_at = $2 WHERE job_id = $1",
  ),
  countByState: statement('count-by-state', 'SELECT state, count(*) AS n FROM jobs GROUP BY state'),
};
