#!/bin/sh
# The postgres image runs this once, when its volume is empty (docker-entrypoint-initdb.d), as the
# database's owner: it makes the role booty's workers connect as (worker-role.sql), with the
# password from the same secret file the workers read (BOOTY_DATABASE_PASSWORD_FILE).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v worker=booty_worker -v password="$(cat /run/secrets/booty_worker_password)" \
  -f /etc/booty/worker-role.sql
