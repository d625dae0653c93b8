// Schema migrations, applied in order. PRAGMA user_version holds how many have run.
// Never edit a released migration: add a new one.

export const migrations: string[] = [
  `
  CREATE TABLE events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    data TEXT NOT NULL,
    state TEXT,
    meta TEXT NOT NULL,
    at INTEGER NOT NULL,
    UNIQUE (stream_id, version)
  );
  CREATE TABLE jobs (
    job_id TEXT PRIMARY KEY,
    repo TEXT NOT NULL,
    issue INTEGER NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    final INTEGER NOT NULL DEFAULT 0,
    outcome TEXT,
    tokens INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL,
    reported_version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX jobs_by_issue ON jobs (repo, issue, final);
  CREATE INDEX jobs_unfinished ON jobs (final, created_at);
  CREATE TABLE deliveries (
    delivery_id TEXT PRIMARY KEY,
    event TEXT NOT NULL,
    action TEXT,
    outcome TEXT NOT NULL,
    job_id TEXT,
    received_at INTEGER NOT NULL
  );
  `,
  // The hash chain (hash-chain.ts): rows written before it have none.
  `ALTER TABLE events ADD COLUMN hash TEXT;`,
  // Where the write probe proves the disk takes a write the size of a large event (probeWritable).
  `CREATE TABLE write_probe (data BLOB);`,
  // A job lives with its pull request: webhooks about the PR or its branch find the job by them.
  `
  ALTER TABLE jobs ADD COLUMN branch TEXT;
  ALTER TABLE jobs ADD COLUMN pr INTEGER;
  CREATE INDEX jobs_by_pr ON jobs (repo, pr, final);
  CREATE INDEX jobs_by_branch ON jobs (repo, branch, final);
  `,
  // The catch-up of missed webhook deliveries: when the last look began, and who looks now.
  `CREATE TABLE delivery_look (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    taken_at INTEGER NOT NULL,
    last_look INTEGER
  );`,
  // The jobs API's tokens (api-tokens.ts): the hash of each, never the token itself.
  `CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('read', 'write')),
    hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  );`,
  // Many workers: who runs a job now and since when; the installation a job came through and an
  // index on the time of events, for the day's spend a per-day cap reads.
  `
  ALTER TABLE jobs ADD COLUMN held_by TEXT;
  ALTER TABLE jobs ADD COLUMN held_since INTEGER;
  ALTER TABLE jobs ADD COLUMN installation INTEGER;
  CREATE INDEX events_at ON events (at);
  `,
];
