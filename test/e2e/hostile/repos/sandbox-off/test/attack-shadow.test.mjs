import { createHash } from 'node:crypto';
import fs from 'node:fs';
import test from 'node:test';

// Case 8: with `sandbox: off` in booty.yml, the test still must not see the host.

test('reads /etc/shadow and counts the processes it can see', () => {
  try {
    const bytes = fs.readFileSync('/etc/shadow');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    console.log(`HOSTILE ${JSON.stringify({ kind: 'read', label: 'shadow', ok: true, sha256 })}`);
  } catch (error) {
    console.log(`HOSTILE ${JSON.stringify({ kind: 'read', label: 'shadow', ok: false, code: error.code })}`);
  }
  const pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).length;
  console.log(`HOSTILE ${JSON.stringify({ kind: 'pids', pids })}`);
});
