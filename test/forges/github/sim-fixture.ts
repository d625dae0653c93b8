import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type GitHubSimulatorOptions, startGitHubSimulator } from '../../../sim/github/github-simulator.js';
import { createGitHubClients, type GitHubClients } from '../../../src/forges/github/clients.js';
import type { JobContext } from '../../../src/machines/job-context.js';
import { sampleJobView, tempDir } from '../../support/job-harness.js';

// A GitHub simulator on 127.0.0.1:0 with a seeded repository, token-authenticated clients with tiny
// retry delays, and helpers to push a real branch and build a job's context.

const run = promisify(execFile);
export const TOKEN = `ghp_${'t'.repeat(36)}`;

export async function simFixture(options: Partial<GitHubSimulatorOptions> = {}) {
  const dir = options.dir ?? tempDir('booty-ghsim-');
  const sim = await startGitHubSimulator({ dir, tokens: [{ token: TOKEN, login: 'booty-bot' }], ...options });
  const clients = createGitHubClients({
    apiUrl: sim.url,
    auth: { kind: 'token', token: TOKEN },
    paced: false,
  });
  return { dir, sim, clients };
}

export function sampleDir(): string {
  const dir = tempDir('booty-sample-');
  fs.writeFileSync(path.join(dir, 'README.md'), '# widgets\n');
  fs.writeFileSync(path.join(dir, 'index.js'), 'export const one = 1;\n');
  return dir;
}

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'booty',
  GIT_AUTHOR_EMAIL: 'booty@example.test',
  GIT_COMMITTER_NAME: 'booty',
  GIT_COMMITTER_EMAIL: 'booty@example.test',
  GIT_TERMINAL_PROMPT: '0',
};

const basic = (username: string, password: string) =>
  `http.extraHeader=Authorization: Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** Clones over HTTP with the credential, commits a file on a branch, pushes it; returns the head sha. */
export async function pushBranch(
  remote: string,
  cred: { username: string; password: string },
  branch: string,
) {
  const work = tempDir('booty-push-');
  const git = (args: string[], cwd = work) =>
    run('git', ['-c', basic(cred.username, cred.password), ...args], { cwd, env: gitEnv });
  await git(['clone', '--quiet', remote, 'repo']);
  const repo = path.join(work, 'repo');
  await git(['checkout', '--quiet', '-b', branch], repo);
  fs.writeFileSync(path.join(repo, 'add.js'), 'export const add = (a, b) => a + b;\n');
  await git(['add', '.'], repo);
  await git(['commit', '--quiet', '-m', 'Add add()'], repo);
  await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], repo);
  const { stdout } = await run('git', ['rev-parse', 'HEAD'], { cwd: repo });
  return stdout.trim();
}

export const jobContext = (overrides: Partial<JobContext> = {}): JobContext =>
  sampleJobView(
    {
      issue: { number: 1, url: 'http://x/acme/widgets/issues/1' },
      settings: { maxRetries: 5, retryCapMs: 5 },
    },
    overrides,
  );

export type { GitHubClients };
