import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { processMarker, report } from '../lib/hostile.mjs';

// A process meant to outlive the run: its own session, deaf to SIGTERM, carrying the marker in its
// command line so the host can look for it afterwards.

test('leaves a process behind', () => {
  if (!processMarker) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linger-'));
  const link = path.join(dir, processMarker);
  fs.symlinkSync('/bin/sleep', link);
  const child = spawn('setsid', ['sh', '-c', `trap '' TERM; exec '${link}' 600`], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  report('linger', { pid: child.pid });
});
