import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readTimeline } from '../src/actors/timeline.js';
import { runDemo } from '../src/demo/run-demo.js';
import { openStore } from '../src/store/open-store.js';
import { forgetCommits } from '../src/workspace/commit-cache.js';

for (let i = 0; i < 2; i++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-trace-'));
  process.stderr.write(`---- job ${i} start @${Date.now() % 100000}\n`);
  forgetCommits();
  const r = await runDemo({ scenario: 'pass', dir });
  process.stderr.write(`---- job ${i} end @${Date.now() % 100000}\n`);
  const store = openStore(r.db);
  const t = await readTimeline(store, r.jobId);
  for (const e of t.entries)
    process.stderr.write(`EV @${e.at % 100000} ${e.type} ${e.step ?? ''} +${e.deltaMs}\n`);
  const c = t.snapshot.context;
  process.stderr.write(
    `baseline dur ${c.baseline?.durationMs} test dur ${c.attempts.map((a) => a.test?.durationMs)}\n`,
  );
  await store.close();
}
