// Builds the sandbox's seccomp filter: compiles src/sandbox/seccomp/filter.c against libseccomp
// (Debian: gcc, libseccomp-dev) and runs it, which writes the BPF program bubblewrap loads.
// `npm run seccomp` rewrites the committed src/sandbox/seccomp/filter.bpf; with a path, it writes
// there instead (the test that checks the committed filter is what filter.c builds).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'sandbox', 'seccomp');
const out = path.resolve(process.argv[2] ?? path.join(dir, 'filter.bpf'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-seccomp-'));
try {
  const program = path.join(work, 'filter');
  execFileSync(
    'gcc',
    ['-O2', '-Wall', '-Wextra', '-Werror', '-o', program, path.join(dir, 'filter.c'), '-lseccomp'],
    {
      stdio: 'inherit',
    },
  );
  execFileSync(program, [out], { stdio: 'inherit' });
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
