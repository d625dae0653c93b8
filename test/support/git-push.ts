import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './job-harness.js';

// A push over git's smart HTTP, as a person or booty makes one: clone the remote with a token,
// commit files on a branch (made from the default branch when new), push, and return the new head.

const run = promisify(execFile);
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'pusher',
  GIT_AUTHOR_EMAIL: 'pusher@example.test',
  GIT_COMMITTER_NAME: 'pusher',
  GIT_COMMITTER_EMAIL: 'pusher@example.test',
  GIT_TERMINAL_PROMPT: '0',
};

export async function pushFiles(
  remote: string,
  token: string,
  branch: string,
  files: Record<string, string>,
  message = 'Change files',
): Promise<string> {
  const header = `http.extraHeader=Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  const repo = path.join(tempDir('booty-push-'), 'repo');
  const git = (args: string[], cwd = repo) => run('git', ['-c', header, ...args], { cwd, env: gitEnv });
  await git(['clone', '--quiet', remote, repo], path.dirname(repo));
  const known = await git(['ls-remote', '--heads', 'origin', branch]);
  await git(known.stdout.trim() ? ['checkout', '--quiet', branch] : ['checkout', '--quiet', '-b', branch]);
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), content);
  }
  await git(['add', '.']);
  await git(['commit', '--quiet', '-m', message]);
  await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`]);
  return (await git(['rev-parse', 'HEAD'])).stdout.trim();
}
