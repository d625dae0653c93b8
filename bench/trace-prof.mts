import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { runDemo } from '../src/demo/run-demo.js';
const s = new Session(); s.connect();
await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 100 });
for (let i = 0; i < 3; i++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-trace-'));
  if (i === 2) await s.post('Profiler.start');
  await runDemo({ scenario: 'pass', dir });
}
const { profile } = await s.post('Profiler.stop');
fs.mkdirSync('/tmp/prof2', { recursive: true });
fs.writeFileSync('/tmp/prof2/p.cpuprofile', JSON.stringify(profile));
