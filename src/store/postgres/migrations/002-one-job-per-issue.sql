-- One unfinished job per issue, kept by the database: two workers that take two deliveries for
-- the same issue at the same moment (opened with the label, and labeled) each find no job for it,
-- and only one of their JobRequested appends commits. SQLite needs no index: one process takes
-- its deliveries in turn.

CREATE UNIQUE INDEX jobs_one_unfinished_per_issue ON jobs (repo, issue) WHERE NOT final;
