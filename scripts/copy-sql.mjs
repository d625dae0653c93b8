// The build's second step: tsc compiles src/ to dist/ but copies no other files, and the
// PostgreSQL migrations are SQL files read from beside the compiled code. Copies src/**/*.sql.
import fs from 'node:fs';
import path from 'node:path';

for (const file of fs.readdirSync('src', { recursive: true })) {
  if (!file.endsWith('.sql')) continue;
  const to = path.join('dist', file);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(path.join('src', file), to);
}
