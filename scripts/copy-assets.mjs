// The build's second step: tsc compiles src/ to dist/ but copies no other files, and two kinds are
// read from beside the compiled code: the PostgreSQL migrations (SQL files) and the sandbox's
// seccomp filter (a BPF program, src/sandbox/seccomp/filter.bpf). Copies src/**/*.{sql,bpf}.
import fs from 'node:fs';
import path from 'node:path';

for (const file of fs.readdirSync('src', { recursive: true })) {
  if (!file.endsWith('.sql') && !file.endsWith('.bpf')) continue;
  const to = path.join('dist', file);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(path.join('src', file), to);
}
