import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { demoResponder } from '../../src/demo/demo-script.js';
import { stateName } from '../../src/machines/job-states.js';
import { corpusCases } from '../corpus/cases.js';
import { REPOS_DIR } from '../corpus/materialize.js';
import { tempDir } from '../support/job-harness.js';
import { e2eWorld, type WorldOptions } from './e2e-world.js';
import { filesModel } from './scripted-model.js';

// The gate end to end: real HTTP to the local GitHub and Anthropic, real git, real test runs under
// bubblewrap. Each test is one promise the README makes about when a change passes.

async function runJob(
  onTestFinished: TestContext['onTestFinished'],
  options: WorldOptions & { scenario?: 'pass' | 'refine'; env?: Record<string, string> },
) {
  const world = await e2eWorld(options.scenario ?? 'pass', options);
  // The tests run at once, each in a world of its own, closed as its test ends.
  onTestFinished(() => world.close());
  const booty = await world.startInProcess(options.env);
  await world.label();
  const [job] = await booty.store.listJobs();
  const snapshot = await booty.server.supervisor.whenFinished(job!.jobId);
  await booty.runtime!.reporter.idle(job!.jobId);
  return { world, booty, snapshot, jobId: job!.jobId };
}

describe.concurrent('the gate end to end', () => {
  it('given a test command that cannot run, then the job fails as test-command-broken with no model request and one comment', async ({
    onTestFinished,
  }) => {
    const { world, snapshot } = await runJob(onTestFinished, {
      repoDir: path.join(REPOS_DIR, 'node-test-broken-command'),
    });
    expect(stateName(snapshot)).toBe('failed');
    expect(snapshot.context.outcome?.reason).toBe('test-command-broken');
    expect(world.anthropic.requests).toEqual([]);
    const comments = world.comments();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('The test command `npm test` exited 1 on the base branch');
    expect(comments[0]!.body).toContain('# .github/booty.yml');
    expect(world.pulls()).toEqual([]);
  });

  it('given a runner booty cannot read, then the job stops before any model request and its comment names the fix', async ({
    onTestFinished,
  }) => {
    // No booty.yml: booty detects npm and runs `npm test`, whose runner prints what booty cannot read.
    const repoDir = path.join(tempDir('booty-unreadable-'), 'repo');
    fs.mkdirSync(repoDir);
    const manifest = {
      name: 'durations',
      version: '1.0.0',
      private: true,
      scripts: { test: 'node check.js' },
    };
    const lock = {
      ...manifest,
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name: 'durations', version: '1.0.0' } },
    };
    fs.writeFileSync(path.join(repoDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    fs.writeFileSync(path.join(repoDir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
    fs.writeFileSync(path.join(repoDir, 'check.js'), "console.log('durations: 3 of 3 fine');\n");
    const { world, snapshot } = await runJob(onTestFinished, { repoDir });
    expect(stateName(snapshot)).toBe('failed');
    expect(snapshot.context.outcome?.reason).toBe('tests-unreadable');
    expect(world.anthropic.requests).toEqual([]);
    const comments = world.comments();
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body).toContain(
      'booty cannot read the results of the test command `npm test` on the base branch: the tests ran and exited 0, but booty read no test result from them: the command starts `node check.js` (the `test` script), whose output booty cannot read.',
    );
    expect(body).toContain('point `test.report` in `.github/booty.yml` at it');
    expect(body).toContain('# .github/booty.yml\ntest:\n  command: npm test\n  report: test-results.xml');
    expect(body).toContain('# gate: exit-code');
    expect(world.pulls()).toEqual([]);
  });

  it("given a change whose own test needs a program the sandbox lacks, then that is the change's failure: refined, not an environment stop", async ({
    onTestFinished,
  }) => {
    const { world, snapshot } = await runJob(onTestFinished, {
      repoDir: path.join(REPOS_DIR, 'node-test-basic'),
      responder: filesModel([
        {
          'test/pretty.test.js': [
            "import { execSync } from 'node:child_process';",
            "import { it } from 'node:test';",
            "it('pretty-prints with jq', () => execSync('jq-nowhere --version', { stdio: 'pipe' }));",
            '',
          ].join('\n'),
        },
        {
          'test/pretty.test.js': [
            "import assert from 'node:assert/strict';",
            "import { it } from 'node:test';",
            "it('pretty-prints', () => assert.equal(JSON.stringify({ a: 1 }, null, 1), '{\\n \"a\": 1\\n}'));",
            '',
          ].join('\n'),
        },
      ]),
      env: { BOOTY_MAX_ATTEMPTS: '3' },
    });
    // The baseline ran without jq-nowhere: its absence is no environment booty must stop for.
    expect(stateName(snapshot)).toBe('promoted');
    expect(snapshot.context.attempts.map((a) => [a.test?.verdict, a.failureClass ?? null])).toEqual([
      ['fail', 'unknown'],
      ['pass', null],
    ]);
    const refine = world.anthropic.messages().filter((r) => r.toolName === 'submit_changes')[1]!;
    expect(refine.raw).toContain('jq-nowhere: not found');
    expect(world.pulls()[0]).toMatchObject({ draft: false });
  });

  it("given a change to a test that fails on the base with the network's words in its output, then that is the change's failure: refined, not an environment stop", async ({
    onTestFinished,
  }) => {
    const repoDir = path.join(tempDir('booty-own-test-'), 'repo');
    fs.cpSync(path.join(REPOS_DIR, 'node-test-basic'), repoDir, { recursive: true });
    const remoteTest = (body: string) =>
      ["import { it } from 'node:test';", `it('reads the remote', () => {${body}});`, ''].join('\n');
    const offline =
      " console.log('getaddrinfo ENOTFOUND api.example.test'); throw new Error('the request failed'); ";
    fs.writeFileSync(path.join(repoDir, 'test/remote.test.js'), remoteTest(offline));
    const { snapshot } = await runJob(onTestFinished, {
      repoDir,
      responder: filesModel([
        // Modified, and failing as on the base: the output's words are the test's, not the sandbox's.
        { 'test/remote.test.js': remoteTest(` const url = 'http://api.example.test';${offline}`) },
        { 'test/remote.test.js': remoteTest(' return undefined; ') },
      ]),
      env: { BOOTY_MAX_ATTEMPTS: '3' },
    });
    const id = 'test/remote.test.js > reads the remote';
    expect(snapshot.context.baseline?.failingTests).toEqual([id]);
    expect(stateName(snapshot)).toBe('promoted');
    expect(
      snapshot.context.attempts.map((a) => [a.test?.verdict, a.test?.changedTests, a.failureClass ?? null]),
    ).toEqual([
      ['fail', [id], 'unknown'],
      ['pass', [id], null],
    ]);
  });

  it('given a change that breaks a parametrized pytest case whose id has spaces, then it is never promoted', async ({
    onTestFinished,
  }) => {
    const breaking = corpusCases.find((c) => c.framework === 'pytest' && c.name === 'breaking-change')!;
    const { world, snapshot } = await runJob(onTestFinished, {
      repoDir: path.join(REPOS_DIR, 'pytest-basic'),
      responder: filesModel([breaking.change as Record<string, string>]),
      env: { BOOTY_MAX_ATTEMPTS: '2' },
    });
    // The job waits with its draft PR; it is never promoted.
    expect(stateName(snapshot)).toBe('prOpened');
    expect(snapshot.context.outcome?.reason).toBe('tests-failing');
    // The scripted model answers the same change again: attempt 2 repeats attempt 1 and is not run.
    expect(snapshot.context.attempts.map((a) => a.test === null)).toEqual([false, true]);
    const last = snapshot.context.attempts[0]!.test!;
    expect(last.verdict).toBe('fail');
    expect(last.newFailures).toEqual(['tests/test_parse.py::test_parse[90 m]']);
    const [pr] = world.pulls();
    expect(pr).toMatchObject({ draft: true });
    expect(pr!.body).toContain('Refs #1');
    expect(pr!.body).not.toContain('Closes #1');
  });

  it('given a relabel after the job promoted its PR, then a second job opens a second PR and the first keeps its head', async ({
    onTestFinished,
  }) => {
    const { world, booty, snapshot } = await runJob(onTestFinished, { scenario: 'pass' });
    expect(stateName(snapshot)).toBe('promoted');
    const [first] = world.pulls();
    const firstHead = first!.headSha;

    await world.unlabel();
    await world.label();
    const second = (await booty.store.listJobs()).at(-1)!;
    expect(second.jobId).not.toBe(snapshot.context.jobId);
    const again = await booty.server.supervisor.whenFinished(second.jobId);
    expect(stateName(again)).toBe('promoted');

    const pulls = world.pulls();
    expect(pulls).toHaveLength(2);
    expect(pulls[0]!.headSha).toBe(firstHead);
    expect(pulls[0]!.head).not.toBe(pulls[1]!.head);
    expect(pulls[1]!.head).toMatch(/^booty\/issue-1-r2-/);
    expect(pulls[1]!.body).toContain(`Follows #${first!.number}`);
  });

  it('given a step error after a change was applied, then the work is up as a draft PR that says why', async ({
    onTestFinished,
  }) => {
    const demo = demoResponder('refine');
    let changes = 0;
    const { world, snapshot } = await runJob(onTestFinished, {
      scenario: 'refine',
      // The first attempt fails its tests; the model then refuses the refinement outright.
      responder: (request) =>
        request.toolName === 'submit_changes' && ++changes === 2
          ? { error: 400, message: 'the request was refused' }
          : demo(request),
    });
    // The job does not end: it waits in prOpened with its draft, the error as its reason.
    expect(stateName(snapshot)).toBe('prOpened');
    expect(snapshot.context.outcome?.reason).toBe('error');
    const [pr] = world.pulls();
    expect(pr).toMatchObject({ draft: true, number: snapshot.context.pr!.number });
    expect(pr!.body).toContain('refine failed');
    expect(pr!.body).toContain('The work so far goes up as a draft pull request.');
  });

  it('given coloured test output, then the refine request holds no escape sequence, whole or in part', async ({
    onTestFinished,
  }) => {
    const coloured = `import { test } from 'node:test';
test('loud', () => {
  console.log('\\u001b[31mred\\u001b[39m \\u001b[2mdim\\u001b[22m');
  throw new Error('\\u001b[31mexpected 2, got 3\\u001b[39m');
});
`;
    const { world, snapshot } = await runJob(onTestFinished, {
      responder: filesModel([
        { 'test/loud.test.js': coloured },
        { 'test/loud.test.js': "import { test } from 'node:test';\ntest('loud', () => {});\n" },
      ]),
    });
    expect(stateName(snapshot)).toBe('promoted');
    const refine = world.anthropic.messages().filter((r) => r.toolName === 'submit_changes')[1]!;
    // What the tests printed (not the test's own source, which the model wrote and may hold anything).
    const failure = /<attempt n="1">[\s\S]*?(Tests: failed[\s\S]*<\/attempt>)/.exec(
      JSON.parse(refine.raw).messages[0].content[1].text,
    )![1]!;
    expect(failure).toContain('expected 2, got 3');
    // An ESC, ESC written as text by a reporter (\x1B), or what stripping only the ESC leaves ([31m).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC byte is what must be absent.
    expect(failure).not.toMatch(/\u001b|\\x1b|\\u001b|\\033|\[(\d{1,2};)*\d{0,2}m/i);
  });

  it('given the same scenario twice, then the model receives byte-identical requests', async ({
    onTestFinished,
  }) => {
    const bodies: string[][] = [];
    // One after the other: the second job starts once the first has finished.
    for (let i = 0; i < 2; i++) {
      const { world } = await runJob(onTestFinished, { scenario: 'refine' });
      bodies.push(world.anthropic.requests.map((r) => r.raw));
    }
    expect(bodies[0]!.length).toBeGreaterThan(2);
    const firstDiff = (a: string, b: string) => {
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      return i === a.length && a.length === b.length
        ? null
        : `${a.slice(i - 80, i + 80)}\n  vs\n${b.slice(i - 80, i + 80)}`;
    };
    expect(bodies[0]!.map((b, i) => firstDiff(b, bodies[1]![i] ?? ''))).toEqual(bodies[0]!.map(() => null));
  });
});
