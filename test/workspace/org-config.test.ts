import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHubSimulator, startGitHubSimulator } from '../../sim/github/github-simulator.js';
import { isBootyError } from '../../src/errors.js';
import { parseExtends } from '../../src/workspace/config-extends.js';
import { DEFAULT_PROTECTED_PATHS } from '../../src/workspace/repo-config.js';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { sampleJob, tempDir } from '../fixtures/git-fixtures.js';

// Organization-wide settings, Probot's way: a repository without .github/booty.yml takes the one in
// its owner's `.github` repository, and a file may build on another with `_extends`. Real git over
// HTTP against the GitHub simulator, with a token, as a job's prepare step reads them.

const TOKEN = `ghp_${'o'.repeat(36)}`;
const author = { name: 'booty[bot]', email: 'booty[bot]@users.noreply.github.com' };
const signal = new AbortController().signal;
let sim: GitHubSimulator;

beforeAll(async () => {
  sim = await startGitHubSimulator({ dir: tempDir(), tokens: [{ token: TOKEN, login: 'booty-bot' }] });
});
afterAll(() => sim.close());

let n = 0;
/** A repository on the simulator with these files (and a package.json, so a setup is detected). */
async function repo(owner: string, name: string, files: Record<string, string> = {}) {
  const dir = tempDir();
  for (const [file, text] of Object.entries({ 'package.json': '{"name":"x"}\n', ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  await sim.createRepo(owner, name, { fromDir: dir });
}

/** prepare for a job on owner/name, in a fresh workdir: its config, or the error it fails with. */
async function prepare(owner: string, name: string) {
  const ws = createWorkspace({
    root: tempDir(),
    remoteUrl: (r) => `${sim.url}/${r.owner}/${r.name}.git`,
    credentials: async () => ({ username: 'x-access-token', password: TOKEN }),
    author,
    spares: false,
  });
  const job = sampleJob({ jobId: `job-${++n}`, repo: { forge: 'github', owner, name } });
  try {
    return (await ws.prepare({ key: 'k', step: 'prepare', attempt: 0, notBefore: null, job }, { signal }))
      .config;
  } finally {
    await ws.idle();
  }
}

async function failure(owner: string, name: string): Promise<string> {
  const err = await prepare(owner, name).then(
    () => null,
    (e: unknown) => e,
  );
  if (!isBootyError(err, 'BOOTY_E_CONFIG_INVALID')) throw new Error(`expected a config error, got ${err}`);
  return err.message;
}

describe('organization config', () => {
  it("applies the owner's .github repository's .github/booty.yml to a repository without one", async () => {
    await repo('acme', '.github', {
      '.github/booty.yml': 'test:\n  command: make check\ninstall: null\ntimeoutSeconds: 120\n',
    });
    await repo('acme', 'plain');
    expect(await prepare('acme', 'plain')).toMatchObject({
      source: 'file',
      path: 'acme/.github:.github/booty.yml',
      test: { command: 'make check', report: [] },
      install: null,
      timeoutSeconds: 120,
    });
  });

  it('lets a repository build on it with _extends: .github, its keys overriding, protected paths adding up', async () => {
    await repo('beta', '.github', {
      '.github/booty.yml':
        'test:\n  command: make check\ninstall:\n  command: make deps\nmaxAttempts: 2\nprotectedPaths: ["secrets/**"]\n',
    });
    await repo('beta', 'extends', {
      '.github/booty.yml': '_extends: .github\ntest:\n  command: npm test\nprotectedPaths: ["db/**"]\n',
    });
    const config = await prepare('beta', 'extends');
    expect(config).toMatchObject({
      source: 'file',
      path: '.github/booty.yml extends beta/.github:.github/booty.yml',
      test: { command: 'npm test' },
      install: { command: 'make deps' },
      maxAttempts: 2,
    });
    expect(config.protectedPaths).toEqual([...DEFAULT_PROTECTED_PATHS, 'secrets/**', 'db/**']);
  });

  it('follows _extends across repositories and owners, to a named file', async () => {
    await repo('shared', 'policies', { 'booty/base.yml': 'timeoutSeconds: 900\nsandbox: required\n' });
    await repo('tools', '.github', {
      '.github/booty.yml': '_extends: shared/policies:booty/base.yml\ntest:\n  command: go test ./...\n',
    });
    await repo('tools', 'cli', { '.booty.yml': '_extends: .github\nmaxAttempts: 5\n' });
    expect(await prepare('tools', 'cli')).toMatchObject({
      path: '.booty.yml extends tools/.github:.github/booty.yml extends shared/policies:booty/base.yml',
      test: { command: 'go test ./...' },
      timeoutSeconds: 900,
      sandbox: 'required',
      maxAttempts: 5,
    });
  });

  it('detects the setup when neither the repository nor its owner has a config', async () => {
    await repo('solo', 'app');
    expect(await prepare('solo', 'app')).toMatchObject({
      source: 'detected',
      path: null,
      test: { command: 'npm test' },
    });
  });

  it('fails the job naming the file when a base is missing, unreadable YAML, or a loop', async () => {
    await repo('errs', 'no-base-repo', { '.github/booty.yml': '_extends: nowhere\n' });
    expect(await failure('errs', 'no-base-repo')).toBe(
      '.github/booty.yml is invalid: _extends names errs/nowhere, a repository that does not exist or that booty cannot read (install the App there too); fix it on the default branch and label the issue again',
    );

    await repo('errs', 'empty');
    await repo('errs', 'no-base-file', { '.github/booty.yml': '_extends: empty:ci/booty.yml\n' });
    expect(await failure('errs', 'no-base-file')).toBe(
      ".github/booty.yml is invalid: _extends names errs/empty:ci/booty.yml, which does not exist on that repository's default branch; fix it on the default branch and label the issue again",
    );

    await repo('errs', 'bad-yaml', { '.github/booty.yml': 'test: [unclosed\n' });
    await repo('errs', 'on-bad', { '.github/booty.yml': '_extends: bad-yaml\n' });
    expect(await failure('errs', 'on-bad')).toMatch(
      /^errs\/bad-yaml:\.github\/booty\.yml is invalid: the file is not valid YAML: .+; fix it on the default branch and label the issue again$/,
    );

    await repo('loop', '.github', { '.github/booty.yml': '_extends: a\n' });
    await repo('loop', 'a', { '.github/booty.yml': '_extends: .github\ntest:\n  command: x\n' });
    expect(await failure('loop', 'a')).toBe(
      'loop/.github:.github/booty.yml is invalid: _extends makes a loop: .github/booty.yml extends loop/.github:.github/booty.yml extends loop/a:.github/booty.yml; fix it on the default branch and label the issue again',
    );
  });
});

describe('parseExtends', () => {
  it.each([
    ['.github', { owner: 'acme', name: '.github', path: '.github/booty.yml' }],
    ['other-repo', { owner: 'acme', name: 'other-repo', path: '.github/booty.yml' }],
    ['org/repo', { owner: 'org', name: 'repo', path: '.github/booty.yml' }],
    ['org/repo:configs/booty.yaml', { owner: 'org', name: 'repo', path: 'configs/booty.yaml' }],
    ['repo:x.yml', { owner: 'acme', name: 'repo', path: 'x.yml' }],
  ])('reads %j from a file of acme', (value, ref) => {
    expect(parseExtends(value, 'acme', '.github/booty.yml')).toEqual(ref);
  });

  it.each(['a/b/c', 'repo:../../etc/passwd.yml', 'repo:notyaml.txt', '..', 'https://github.com/a/b'])(
    'refuses %j, naming the file',
    (value) => {
      expect(() => parseExtends(value, 'acme', '.booty.yml')).toThrow(
        `.booty.yml is invalid: _extends is ${JSON.stringify(value)}, not a repository: write .github, repo, owner/repo, or owner/repo:path/to/file.yml`,
      );
    },
  );
});
