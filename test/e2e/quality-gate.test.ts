import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stateName } from '../../src/machines/job-states.js';
import { REPOS_DIR } from '../corpus/materialize.js';
import { tempDir } from '../fixtures/git-fixtures.js';
import { e2eWorld } from './e2e-world.js';
import { filesModel } from './scripted-model.js';

// Quality commands end to end: real HTTP to the local GitHub and Anthropic, real git, and the
// repository's own lint script run under bubblewrap after its tests, on the base commit and after
// each attempt. The lint flags every console.log under src/ at its file and line.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

/** A new module, with a debugging line left in when `debug` names one. */
const format = (debug?: string) =>
  [
    'export function formatDuration(seconds) {',
    ...(debug ? [`  console.log('${debug}', seconds);`] : []),
    "  return seconds + ' s';",
    '}',
    '',
  ].join('\n');
const formatTest = [
  "import assert from 'node:assert/strict';",
  "import { it } from 'node:test';",
  "import { formatDuration } from '../src/format.js';",
  "it('formats seconds', () => assert.equal(formatDuration(5), '5 s'));",
  '',
].join('\n');

async function runJob(repo: string, attempts: Record<string, string>[], maxAttempts = 3) {
  const repoDir = path.isAbsolute(repo) ? repo : path.join(REPOS_DIR, repo);
  world = await e2eWorld('pass', { repoDir, responder: filesModel(attempts) });
  const booty = await world.startInProcess({ BOOTY_MAX_ATTEMPTS: String(maxAttempts) });
  await world.label();
  const [job] = await booty.store.listJobs();
  const snapshot = await booty.server.supervisor.whenFinished(job!.jobId);
  await booty.runtime!.reporter.idle(job!.jobId);
  return snapshot;
}

/** The text of the n-th changes request the model received. */
const changesRequest = (n: number) =>
  JSON.parse(world!.anthropic.messages().filter((r) => r.toolName === 'submit_changes')[n]!.raw)
    .messages[0].content.map((c: { text?: string }) => c.text ?? '')
    .join('\n') as string;

describe('quality commands end to end', () => {
  it('given a change that passes its tests but adds a lint finding, then the refine request carries the finding and the fixed change is promoted', async () => {
    const snapshot = await runJob('node-test-lint', [
      { 'src/format.js': format('debug'), 'test/format.test.js': formatTest },
      { 'src/format.js': format(), 'test/format.test.js': formatTest },
    ]);
    expect(stateName(snapshot)).toBe('promoted');
    const [first, second] = snapshot.context.attempts;
    expect(first!.test).toMatchObject({ verdict: 'fail', passed: false, newFailures: [] });
    expect(first!.test!.quality).toMatchObject([
      {
        command: 'node scripts/lint.mjs',
        verdict: 'fail',
        reason: 'passed on the base commit and exited 1 after the change',
        newFindings: ['src/format.js: no-console Unexpected console.log'],
      },
    ]);
    expect(second!.test).toMatchObject({ verdict: 'pass', passed: true });

    const refine = changesRequest(1);
    expect(refine).toContain('<quality_failure>');
    expect(refine).toContain(
      'Command: node scripts/lint.mjs: passed on the base commit and exited 1 after the change.',
    );
    expect(refine).toContain('src/format.js: no-console Unexpected console.log');

    const [pr] = world!.pulls();
    expect(pr).toMatchObject({ draft: false });
    expect(pr!.body).toContain('| Quality command | Before the change | After the change |');
    expect(pr!.body).toContain('| `node scripts/lint.mjs` | ✅ passed | ✅ passed |');
    expect(pr!.body).toContain('| 1 | 2 | ❌ tests passed; `node scripts/lint.mjs` did not |');
    expect(pr!.body).toContain('Closes #1');
  });

  it('given a lint finding the model never fixes, then the work stays a draft that names the command and its findings', async () => {
    const snapshot = await runJob(
      'node-test-lint',
      [
        { 'src/format.js': format('one'), 'test/format.test.js': formatTest },
        { 'src/format.js': format('two'), 'test/format.test.js': formatTest },
      ],
      2,
    );
    expect(stateName(snapshot)).toBe('prOpened');
    expect(snapshot.context.outcome?.reason).toBe('tests-failing');
    expect(snapshot.context.attempts.map((a) => a.test?.verdict)).toEqual(['fail', 'fail']);
    const [pr] = world!.pulls();
    expect(pr).toMatchObject({ draft: true });
    expect(pr!.body).toContain(
      '> [!CAUTION]\n> The tests pass, but `node scripts/lint.mjs` fails with failures the base commit did not have after 2 of 2 attempts.',
    );
    expect(pr!.body).toContain('| Result | ❌ failing (a quality command) |');
    expect(pr!.body).toContain(
      '`node scripts/lint.mjs` found what the base commit did not have:\n- `src/format.js: no-console Unexpected console.log`',
    );
    expect(pr!.body).toContain('Refs #1');
    expect(pr!.body).not.toContain('## What failed');
  });

  it('given a lint finding already on the base commit, then a change that adds none is promoted on its first attempt', async () => {
    const snapshot = await runJob('node-test-lint-known', [
      { 'src/format.js': format(), 'test/format.test.js': formatTest },
    ]);
    expect(stateName(snapshot)).toBe('promoted');
    expect(snapshot.context.baseline!.quality).toMatchObject([
      { verdict: 'fail', findings: ['src/banner.js: no-console Unexpected console.log'] },
    ]);
    expect(snapshot.context.attempts).toHaveLength(1);
    expect(world!.pulls()[0]!.body).toContain(
      '| `node scripts/lint.mjs` | ❌ exited 1 on the base commit | ✅ already failed on the base commit; the change adds no finding |',
    );
  });

  it('given a quality command that fails before and after the change and names no finding, then booty says it cannot tell, spends no second attempt, and does not promote', async () => {
    const repoDir = tempDir('booty-quality-');
    fs.cpSync(path.join(REPOS_DIR, 'node-test-lint-known'), repoDir, { recursive: true });
    // Fails on the base commit and after the change alike, printing nothing booty could compare.
    fs.writeFileSync(
      path.join(repoDir, '.github/booty.yml'),
      'test:\n  command: node --test\ninstall: null\nquality:\n  commands: [test ! -e src/banner.js]\n',
    );
    const change = { 'src/format.js': format(), 'test/format.test.js': formatTest };
    const snapshot = await runJob(repoDir, [change, change, change]);
    fs.rmSync(repoDir, { recursive: true, force: true });
    expect(stateName(snapshot)).toBe('prOpened');
    // No attempt can make booty able to judge the command: the job stops after the first.
    expect(snapshot.context.attempts).toHaveLength(1);
    expect(world!.anthropic.messages().filter((r) => r.toolName === 'submit_changes')).toHaveLength(1);
    expect(snapshot.context.attempts[0]!.test).toMatchObject({
      verdict: 'unknown',
      passed: false,
      failureClass: 'environment',
    });
    expect(JSON.stringify(snapshot.context.outcome)).toContain(
      'booty cannot judge the quality commands: `test ! -e src/banner.js` exited 1, as it did on the base commit',
    );
    const [pr] = world!.pulls();
    expect(pr).toMatchObject({ draft: true });
    expect(pr!.body).toContain(
      "> [!CAUTION]\n> The tests pass, but booty cannot judge the quality commands: `test ! -e src/banner.js` exited 1, as it did on the base commit, and its output names no finding at a file and line that booty can compare: booty cannot tell whether the change added a failure. booty stopped after attempt 1: another attempt cannot fix this. Make the command pass on the base branch, have it print its findings as `path:line: message`, install what it needs on booty's host, or take it out of booty.yml's `quality.commands`;",
    );
    expect(pr!.body).toContain(
      '| `test ! -e src/banner.js` | ❌ exited 1 on the base commit | ❔ exited 1, as it did on the base commit, and its output names no finding at a file and line that booty can compare: booty cannot tell whether the change added a failure |',
    );
    expect(pr!.body).toContain('| Result | ❔ not proven (a quality command) |');
  });
});
