import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { examplesDir } from '../../src/demo/demo-script.js';
import { stateName } from '../../src/machines/job-states.js';
import { sh, tempDir } from '../fixtures/git-fixtures.js';
import { e2eWorld, OWNER, REPO } from './e2e-world.js';
import { scriptedModel } from './scripted-model.js';

// booty.yml's baseBranch end to end: the config is read from the default branch, and the job
// builds on the base branch (its clone, its baseline) and opens its PR against it. Real git on
// the local GitHub's bare repository, real tests under bubblewrap.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

const _analysis = JSON.parse(fs.readFileSync(path.join(examplesDir, 'demo-turns', 'analysis.json'), 'utf8'));
const addedTest = [
  "import { it } from 'node:test';",
  "import { parseDuration } from '../src/duration.js';",
  "it('parses a day', () => { if (parseDuration('1d') !== 86400) throw new Error('not a day'); });",
  '',
].join('\n');
// On develop only: the unit the change builds on.
const developDuration = [
  'const UNITS = { d: 86400, h: 3600, m: 60, s: 1 };',
  'export function parseDuration(text) {',
  '  const match = /^(\\d+)\\s*([dhms])$/.exec(text.trim());',
  "  if (!match) throw new Error('not a duration: ' + text);",
  '  return Number(match[1]) * UNITS[match[2]];',
  '}',
  '',
].join('\n');

const model = scriptedModel([
  {
    explanation: 'a test for days',
    changes: [{ path: 'test/day.test.js', content: addedTest }],
    deletePaths: [],
  },
]);

/** A repository whose main names `baseBranch`, with a develop branch where days parse. */
async function worldWithDevelop(baseBranch: string) {
  const repoDir = tempDir('booty-base-branch-');
  fs.mkdirSync(path.join(repoDir, '.github'));
  fs.mkdirSync(path.join(repoDir, 'src'));
  fs.writeFileSync(
    path.join(repoDir, 'package.json'),
    '{ "name": "d", "private": true, "type": "module", "scripts": { "test": "node --test" } }\n',
  );
  fs.writeFileSync(
    path.join(repoDir, '.github/booty.yml'),
    `test:\n  command: node --test\ninstall: null\nbaseBranch: ${baseBranch}\n`,
  );
  fs.writeFileSync(
    path.join(repoDir, 'src/duration.js'),
    developDuration.replace('d: 86400, ', '').replace('[dhms]', '[hms]'),
  );
  world = await e2eWorld('pass', { repoDir, responder: model });
  const { bareDir } = await world.github.createRepo(OWNER, REPO);
  const seed = path.join(repoDir, 'seed');
  sh(repoDir, 'clone', '--quiet', bareDir, seed);
  sh(seed, 'checkout', '--quiet', '-b', 'develop');
  fs.writeFileSync(path.join(seed, 'src/duration.js'), developDuration);
  sh(seed, 'commit', '--quiet', '-am', 'days');
  sh(seed, 'push', '--quiet', 'origin', 'develop');
  fs.rmSync(repoDir, { recursive: true, force: true });
  return { bareDir, developSha: sh(bareDir, 'rev-parse', 'refs/heads/develop') };
}

async function runJob() {
  const booty = await world!.startInProcess();
  await world!.label();
  const [job] = await booty.store.listJobs();
  const snapshot = await booty.server.supervisor.whenFinished(job!.jobId);
  await booty.runtime!.reporter.idle(job!.jobId);
  return snapshot;
}

describe('baseBranch end to end', () => {
  it('given baseBranch: develop, then the job tests on develop and opens its PR against develop', async () => {
    const { bareDir, developSha } = await worldWithDevelop('develop');
    const snapshot = await runJob();
    expect(stateName(snapshot)).toBe('promoted');
    expect(snapshot.context.workspace).toEqual({ baseSha: developSha, defaultBranch: 'develop' });
    // The added test parses a day, which only develop's code does: it passed, so it ran on develop.
    expect(snapshot.context.attempts.at(-1)!.test).toMatchObject({
      passed: true,
      changedTests: ['test/day.test.js > parses a day'],
    });
    const [pr] = world!.pulls();
    expect(pr).toMatchObject({ base: 'develop', baseSha: developSha, draft: false });
    expect(sh(bareDir, 'rev-parse', `${pr!.headSha}^`)).toBe(developSha);
  });

  it('given a baseBranch the remote does not have, then the job fails at prepare naming it, with no model request', async () => {
    await worldWithDevelop('release/2.x');
    const snapshot = await runJob();
    expect(stateName(snapshot)).toBe('failed');
    expect(world!.anthropic.requests).toEqual([]);
    expect(world!.pulls()).toEqual([]);
    const comments = world!.comments().map((c) => c.body);
    expect(comments.join('\n')).toContain(
      '.github/booty.yml sets baseBranch: release/2.x, but the remote has no branch release/2.x: push it, or set baseBranch to an existing branch (or remove it to build on the default branch, main) on the default branch, and label the issue again',
    );
  });
});
