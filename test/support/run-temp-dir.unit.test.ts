import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './job-harness.js';
import { sweepEndedRuns } from './run-temp-dir.js';

// A test run's temporary folder goes when the run ends; the next run removes what a killed or
// failed one left, and never a folder of a run still going.

let parent = '';
beforeEach(() => {
  parent = tempDir('booty-sweep-');
});
afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

const NO_SUCH_PID = 2 ** 31 - 1;

const runFolder = (name: string, pid?: string) => {
  const dir = path.join(parent, name);
  fs.mkdirSync(path.join(dir, 'booty-test-x'), { recursive: true });
  if (pid !== undefined) fs.writeFileSync(path.join(dir, 'pid'), pid);
  return dir;
};

describe("the test runs' temporary folders", () => {
  it('removes the folders of ended runs, and keeps those of running ones and whatever is not a run folder', () => {
    runFolder('booty-tests-running', `${process.pid}\n`);
    const ended = runFolder('booty-tests-ended', `${NO_SUCH_PID}\n`);
    const unreadable = runFolder('booty-tests-garbage', 'not a pid');
    // Just made, its pid not written yet: a run starting now.
    runFolder('booty-tests-starting');
    // Made an hour ago with no pid: a run that never began.
    const stale = runFolder('booty-tests-stale');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(stale, anHourAgo, anHourAgo);
    runFolder('booty-test-other', `${NO_SUCH_PID}\n`);

    expect(sweepEndedRuns(parent).sort()).toEqual([ended, unreadable, stale].sort());
    expect(fs.readdirSync(parent).sort()).toEqual([
      'booty-test-other',
      'booty-tests-running',
      'booty-tests-starting',
    ]);
  });
});
