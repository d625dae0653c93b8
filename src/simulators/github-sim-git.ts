import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';

// Each simulated repository's remote is a real bare git repository, served over smart HTTP by
// `git http-backend` (CGI), so clone, fetch and push behave exactly as against GitHub.

const run = promisify(execFile);

export const bareDir = (root: string, owner: string, name: string) =>
  path.join(root, 'git', owner.toLowerCase(), `${name.toLowerCase()}.git`);

const git = (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  run('git', args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });

/** Fixed names and dates: the same files make the same first commit, so runs can be compared. */
const author = {
  GIT_AUTHOR_NAME: 'GitHub Simulator',
  GIT_AUTHOR_EMAIL: 'simulator@users.noreply.github.test',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'GitHub Simulator',
  GIT_COMMITTER_EMAIL: 'simulator@users.noreply.github.test',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

/** Creates the bare repository, seeded with one commit of a directory's files when given. */
export async function createBareRepo(bare: string, defaultBranch: string, fromDir?: string): Promise<void> {
  if (fs.existsSync(path.join(bare, 'HEAD'))) return;
  fs.mkdirSync(bare, { recursive: true });
  await git(bare, ['init', '--bare', '--quiet', `--initial-branch=${defaultBranch}`]);
  // Pushes go through http-backend as the authenticated user; let it accept them.
  await git(bare, ['config', 'http.receivepack', 'true']);
  if (!fromDir) return;
  // Commit the directory straight into the bare repository, honouring its .gitignore files.
  const common = ['--git-dir', bare, '--work-tree', path.resolve(fromDir)];
  await git(fromDir, [...common, 'add', '--all']);
  await git(fromDir, [...common, 'commit', '--quiet', '--no-verify', '-m', 'Initial commit'], author);
  fs.rmSync(path.join(bare, 'index'), { force: true });
}

/** The commit a branch points at, or null when there is no such branch. */
export async function branchSha(bare: string, branch: string): Promise<string | null> {
  try {
    const { stdout } = await git(bare, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

/** The commits branches point at, read with one git process; a missing branch is left out. */
export async function branchShas(bare: string, branches: string[]): Promise<Map<string, string>> {
  const { stdout } = await git(bare, [
    'for-each-ref',
    '--format=%(refname) %(objectname)',
    ...branches.map((b) => `refs/heads/${b}`),
  ]);
  const shas = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const [ref, sha] = line.split(' ');
    if (ref && sha) shas.set(ref.replace(/^refs\/heads\//, ''), sha);
  }
  return shas;
}

/** Commits on head that base lacks. */
export async function commitsAhead(bare: string, base: string, head: string): Promise<number> {
  const { stdout } = await git(bare, ['rev-list', '--count', `refs/heads/${base}..refs/heads/${head}`]);
  return Number(stdout.trim());
}

/** Hands one smart-HTTP request to git http-backend and streams its CGI reply back. */
export function serveGit(
  req: IncomingMessage,
  res: ServerResponse,
  options: { projectRoot: string; pathInfo: string; query: string; user: string },
): Promise<void> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: options.projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: options.pathInfo,
      QUERY_STRING: options.query,
      REQUEST_METHOD: req.method ?? 'GET',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: options.user,
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      GIT_HTTP_MAX_REQUEST_BUFFER: '100M',
    };
    if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
    if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
    if (req.headers['git-protocol']) env.GIT_PROTOCOL = String(req.headers['git-protocol']);
    const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    req.pipe(child.stdin);
    child.stdin.on('error', () => {});
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      const endLf = head.indexOf('\n\n');
      const cut = end >= 0 ? end : endLf;
      if (cut < 0) return;
      const sep = end >= 0 ? 4 : 2;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, cut).toString('utf8').split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(cut + sep));
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => {
      if (!headersDone) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.write(`git http-backend failed (${code}): ${stderr}`);
      }
      res.end();
      resolve();
    });
  });
}
