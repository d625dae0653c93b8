import fs from 'node:fs';
import test from 'node:test';
import { digest, hexHead, report, targets } from '../lib/hostile.mjs';

// Case 1: the host's password hashes, the service's directory (its database and private key) and
// another job's workspace.

test('reads files outside its workspace', () => {
  const files = { shadow: '/etc/shadow', ...targets.files };
  for (const [label, file] of Object.entries(files)) {
    try {
      const bytes = fs.readFileSync(file);
      report('read', { label, ok: true, sha256: digest(bytes), head: hexHead(bytes) });
    } catch (error) {
      report('read', { label, ok: false, code: error.code });
    }
  }
  for (const [label, dir] of Object.entries(targets.dirs ?? {})) {
    try {
      report('list', { label, ok: true, entries: fs.readdirSync(dir) });
    } catch (error) {
      report('list', { label, ok: false, code: error.code });
    }
  }
});
