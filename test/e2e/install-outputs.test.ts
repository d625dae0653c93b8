import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stateName } from '../../src/machines/job-states.js';
import { durationWithFormat, vitestFlavor } from '../corpus/cases/js.js';
import { corpusDeps, REPOS_DIR } from '../corpus/materialize.js';
import { tempDir } from '../support/job-harness.js';
import { expectReplayVerified } from './conversation-world.js';
import { e2eWorld } from './e2e-world.js';
import { filesModel } from './scripted-model.js';

// A vitest repository with no .gitignore, end to end: the install links node_modules into the
// tree, untracked and not ignored. It stays for every attempt's run, so `npx vitest` finds the
// runner there and never goes to the registry (which the sandbox cannot reach): attempt 1's
// failing test is refined, attempt 2 passes, and the PR is promoted.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
let deps = '';
beforeAll(async () => {
  deps = await corpusDeps();
}, 300_000);
afterEach(async () => {
  await world?.close();
  world = null;
});

/** vitest-basic without its .gitignore, the runner linked in by the install and run through npx. */
function repoWithoutGitignore(): string {
  const dir = path.join(tempDir('booty-no-gitignore-'), 'repo');
  fs.cpSync(path.join(REPOS_DIR, 'vitest-basic'), dir, { recursive: true });
  fs.rmSync(path.join(dir, '.gitignore'));
  // Where node_modules is gone, npx asks the registry, which the sandbox cannot reach: one try, so
  // that failure comes in a second rather than after a minute of retries.
  fs.writeFileSync(path.join(dir, '.npmrc'), 'fetch-retries=0\n');
  fs.writeFileSync(
    path.join(dir, '.github', 'booty.yml'),
    `test:\n  command: npx vitest run\ninstall:\n  command: ln -sfn ${deps}/vitest/node_modules node_modules\ntimeoutSeconds: 60\n`,
  );
  return dir;
}

const formatTest = `import { describe, expect, it } from 'vitest';
import { formatDuration } from '../src/duration.js';

describe('formatDuration', () => {
  it('formats hours and minutes', () => expect(formatDuration(5400)).toBe('1h 30m'));
  it('formats zero', () => expect(formatDuration(0)).toBe('0s'));
});
`;

describe('what the install made, end to end', () => {
  it('given a vitest repository with no .gitignore, then attempt 1 fails a test, attempt 2 passes, and the PR is promoted', async () => {
    const correct = durationWithFormat(vitestFlavor);
    const joined = correct.replace("parts.join(' ')", "parts.join('')");
    expect(joined).not.toBe(correct);
    world = await e2eWorld('pass', {
      repoDir: repoWithoutGitignore(),
      responder: filesModel([
        { 'src/duration.js': joined, 'test/format.test.js': formatTest },
        { 'src/duration.js': correct, 'test/format.test.js': formatTest },
      ]),
    });
    const booty = await world.startInProcess({
      BOOTY_SANDBOX: 'required',
      BOOTY_SANDBOX_RO_PATHS: deps,
      BOOTY_MAX_ATTEMPTS: '3',
    });
    await world.label();
    const [job] = await booty.store.listJobs();
    const snapshot = await booty.server.supervisor.whenFinished(job!.jobId);
    await booty.runtime!.reporter.idle(job!.jobId);

    expect(stateName(snapshot)).toBe('promoted');
    expect(snapshot.context.baseline).toMatchObject({ broken: null, totals: { passed: 4, skipped: 1 } });
    const attempts = snapshot.context.attempts.map((a) => ({
      verdict: a.test?.verdict,
      failureClass: a.failureClass ?? null,
      failing: a.test?.newFailures,
      sandbox: a.test?.sandbox,
    }));
    expect(attempts).toEqual([
      {
        verdict: 'fail',
        failureClass: 'assertion',
        failing: ['test/format.test.js > formatDuration > formats hours and minutes'],
        sandbox: 'bwrap',
      },
      { verdict: 'pass', failureClass: null, failing: [], sandbox: 'bwrap' },
    ]);
    expect(world.pulls()).toMatchObject([{ draft: false }]);
    await expectReplayVerified(world.dir, job!.jobId, 'promoted');
  });
});
