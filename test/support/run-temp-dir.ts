import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { alive } from './process-alive.js';

// Every temporary folder a test run makes, its own and its children's (tempDir, booty's demo and
// eval folders, the simulators' state, a sandbox's HOME), goes inside one folder for the run:
// TMPDIR points there before any worker starts, and every process after inherits it. The folder
// goes when the run ends. A failed run keeps it for a look, and says where; the next run removes
// it, and any other a killed run left behind. Tests made tens of thousands of folders a day here,
// and nothing removed them.

const PREFIX = 'booty-tests-';
const OWNER = 'pid';

/** A run folder's run has ended: its pid is not alive, or, with no pid written, a minute has passed. */
function ended(dir: string): boolean {
  try {
    const pid = Number(fs.readFileSync(path.join(dir, OWNER), 'utf8').trim());
    return !(Number.isInteger(pid) && pid > 0 && alive(pid));
  } catch {
    // No pid yet: a run starting now, unless the folder is older than a start takes.
    const madeAt = fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    return Date.now() - madeAt >= 60_000;
  }
}

/** Removes the run folders whose run has ended (killed, or failed and kept). */
export function sweepEndedRuns(parent: string): string[] {
  const swept: string[] = [];
  for (const name of fs.readdirSync(parent)) {
    const dir = path.join(parent, name);
    if (!name.startsWith(PREFIX) || !ended(dir)) continue;
    // The ended run's own removal may still be under way: then either one finishes it, and a run
    // about to start does not fail for it.
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      swept.push(dir);
    } catch {}
  }
  return swept;
}

/** This process's run and its folder, so a config loaded again (once per project) makes no other. */
const RUN = 'BOOTY_TESTS_RUN';

/** The run's folder as this process or its parent run made it, if any. */
const runFolder = () => (process.env[RUN] ?? '').split(':');

/** Where temporary folders go that must outlive the run (a server a killed run left is found there). */
export const outsideRunTempDir = () => {
  const [, dir] = runFolder();
  return dir ? path.dirname(dir) : os.tmpdir();
};

/** Makes this run's folder, points TMPDIR at it, and removes it when the process exits cleanly. */
export function useRunTempDir(): string {
  const [pid, made] = runFolder();
  if (Number(pid) === process.pid && made) return made;
  const parent = os.tmpdir();
  sweepEndedRuns(parent);
  const dir = fs.mkdtempSync(path.join(parent, PREFIX));
  // Others may need to reach inside: the PostgreSQL server runs as its own user.
  fs.chmodSync(dir, 0o755);
  fs.writeFileSync(path.join(dir, OWNER), `${process.pid}\n`);
  process.env.TMPDIR = dir;
  // booty's own cache folder (the Go seed) too: a run neither reads nor leaves one outside it.
  process.env.XDG_CACHE_HOME = path.join(dir, 'cache');
  process.env[RUN] = `${process.pid}:${dir}`;
  process.on('exit', (code) => {
    if (code !== 0) {
      console.error(`The failed run's temporary folders are kept in ${dir} (the next run removes them).`);
      return;
    }
    // Removed by a process of its own, so the run ends now: a whole suite's folders take seconds.
    spawn('rm', ['-rf', dir], { detached: true, stdio: 'ignore' }).unref();
  });
  return dir;
}
