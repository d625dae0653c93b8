// The PostgreSQL store's statements, each prepared once per connection under its name.

const statement = (name: string, text: string) => ({ name: `booty-${name}`, text });

export const q = {
  // In key order, so two batches sharing keys take their row locks in the same order.
  recordDeliveries: statement(
    'record-deliveries',
    `INSERT INTO deliveries (delivery_id, event, action, outcome, job_id, received_at)
     SELECT d.*, $6::bigint
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS d(delivery_id, event, action, outcome, job_id)
     ORDER BY d.delivery_id
     ON CONFLICT (delivery_id) DO NOTHING RETURNING delivery_id`,
  ),
  unknownDeliveries: statement(
    'unknown-deliveries',
    `SELECT d.id FROM unnest($1::text[]) WITH ORDINALITY AS d(id, n)
     WHERE NOT EXISTS (SELECT 1 FROM deliveries WHERE delivery_id = d.id) ORDER BY d.n`,
  ),
  // The row's lock makes the take one at a time: a worker that finds it taken within the gap
  // updates nothing and gets no row back.
  takeDeliveryLook: statement(
    'take-delivery-look',
    `INSERT INTO delivery_look (one, taken_at) VALUES (true, $1)
     ON CONFLICT (one) DO UPDATE SET taken_at = excluded.taken_at
     WHERE $2::bigint = 0 OR delivery_look.taken_at <= $1::bigint - $2::bigint
     RETURNING last_look`,
  ),
  finishDeliveryLook: statement(
    'finish-delivery-look',
    `INSERT INTO delivery_look (one, taken_at, last_look) VALUES (true, $1, $1)
     ON CONFLICT (one) DO UPDATE SET last_look = GREATEST(delivery_look.last_look, excluded.last_look)`,
  ),
  // The whole append runs on the server, in the migration's booty_append (001-init.sql).
  append: statement('append', 'SELECT * FROM booty_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)'),
  version: statement('version', 'SELECT COALESCE(max(version), 0) AS v FROM events WHERE stream_id = $1'),
  hashAt: statement('hash-at', 'SELECT hash FROM events WHERE stream_id = $1 AND version = $2'),
  readStream: statement(
    'read-stream',
    'SELECT * FROM events WHERE stream_id = $1 AND version BETWEEN $2 AND $3 ORDER BY version',
  ),
  readAll: statement('read-all', 'SELECT * FROM events WHERE position > $1 ORDER BY position LIMIT $2'),
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
    `SELECT * FROM jobs WHERE repo = $1 AND (NOT final OR state = 'damaged') AND (pr = $2 OR branch = $3)
     ORDER BY final, created_at DESC LIMIT 1`,
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
    `UPDATE jobs SET state = 'damaged', final = true, outcome = 'damaged', reported_version = 0, updated_at = $2
     WHERE job_id = $1 AND state <> 'damaged'`,
  ),
  countByState: statement('count-by-state', 'SELECT state, count(*) AS n FROM jobs GROUP BY state'),
};
