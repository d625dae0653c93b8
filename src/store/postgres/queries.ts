// The log's statements on PostgreSQL (the jobs read model's and the delivery log's are beside
// their code), each prepared once per connection under its name.

export const statement = (name: string, text: string) => ({ name: `booty-${name}`, text });

export const q = {
  // The whole append runs on the server, in the migration's booty_append (001-init.sql).
  append: statement('append', 'SELECT * FROM booty_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)'),
  version: statement('version', 'SELECT COALESCE(max(version), 0) AS v FROM events WHERE stream_id = $1'),
  hashAt: statement('hash-at', 'SELECT hash FROM events WHERE stream_id = $1 AND version = $2'),
  readStream: statement(
    'read-stream',
    'SELECT * FROM events WHERE stream_id = $1 AND version BETWEEN $2 AND $3 ORDER BY version',
  ),
  readAll: statement('read-all', 'SELECT * FROM events WHERE position > $1 ORDER BY position LIMIT $2'),
};
