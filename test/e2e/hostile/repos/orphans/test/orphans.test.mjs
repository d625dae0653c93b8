import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

// Case 7: hundreds of processes meant to outlive the run: half in their own session (setsid), half
// double-forked, every one deaf to SIGTERM and carrying the marker in its command line; then the
// test itself ignores SIGTERM and hangs past the timeout.

const marker =
  process.env.HOSTILE_ORPHAN_MARKER ??
  fs.readFileSync(new URL('../orphan-marker.txt', import.meta.url), 'utf8').trim();
const count = Number(process.env.HOSTILE_ORPHANS ?? 300);

test('spawns orphans and hangs', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orphans-'));
  const link = path.join(dir, marker);
  fs.symlinkSync('/bin/sleep', link);
  const orphan = `sh -c "trap '' TERM; exec '${link}' 600" </dev/null >/dev/null 2>&1`;
  const script = `i=0
while [ $i -lt ${count} ]; do
  i=$((i + 1))
  if [ $((i % 2)) -eq 0 ]; then setsid ${orphan} & else (${orphan} &); fi
done`;
  spawnSync('/bin/sh', ['-c', script], { stdio: 'ignore' });
  console.log(`HOSTILE ${JSON.stringify({ kind: 'orphans', count })}`);
  process.on('SIGTERM', () => {});
  await new Promise(() => setInterval(() => {}, 1000));
});
