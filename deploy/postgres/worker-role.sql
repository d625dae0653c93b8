-- The role booty's workers connect as: it may read and write booty's tables and the job queue's,
-- and change no schema. `booty migrate`, run as the database's owner, makes and upgrades the
-- schemas; the default privileges below give the worker each table the owner makes from then on.
-- Run by psql as the owner, with the variables worker (the role) and password:
--   psql -v worker=booty_worker -v password=... -f worker-role.sql   (worker-role.sh does)
-- On a database booty already uses, run it once the same way: the GRANT ... ON ALL lines cover
-- what exists.

CREATE ROLE :"worker" LOGIN PASSWORD :'password';

-- The job queue's schema (pg-boss) exists before its tables, so privileges can be set on it now.
CREATE SCHEMA IF NOT EXISTS pgboss;
GRANT USAGE ON SCHEMA public, pgboss TO :"worker";

ALTER DEFAULT PRIVILEGES IN SCHEMA public, pgboss
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"worker";
ALTER DEFAULT PRIVILEGES IN SCHEMA public, pgboss
  GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO :"worker";
ALTER DEFAULT PRIVILEGES IN SCHEMA public, pgboss
  GRANT EXECUTE ON FUNCTIONS TO :"worker";

GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public, pgboss TO :"worker";
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public, pgboss TO :"worker";
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public, pgboss TO :"worker";
