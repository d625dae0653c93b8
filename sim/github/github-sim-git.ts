import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

// Each simulated repository's remote is a real bare git repository, served over smart HTTP by
// git's own upload-pack and receive-pack, so clone, fetch and push behave exactly as against GitHub.

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
  // GitHub collects garbage on its own time, not while a push waits for its answer.
  await git(bare, ['config', 'receive.autogc', 'false']);
  if (!fromDir) return;
  // Commit the directory straight into the bare repository, honouring its .gitignore files.
  const common = ['--git-dir', bare, '--work-tree', path.resolve(fromDir)];
  await git(fromDir, [...common, 'add', '--all']);
  await git(fromDir, [...common, 'commit', '--quiet', '--no-verify', '-m', 'Initial commit'], author);
  fs.rmSync(path.join(bare, 'index'), { force: true });
}

/**
 * A maintainer's push to a fork reaches only the heads of pull requests whose authors allow edits
 * by maintainers: the refs the simulator names for that push. A push that names none (the fork's
 * owner's) may go anywhere.
 */
const FORK_PRE_RECEIVE = `#!/bin/sh
[ -z "$SIM_PUSHABLE_REFS" ] && exit 0
status=0
while read old new ref; do
  case " $SIM_PUSHABLE_REFS " in
    *" $ref "*) ;;
    *) echo "permission denied: $ref is not the head of a pull request that allows edits by maintainers" >&2; status=1 ;;
  esac
done
exit $status
`;

/** A fork's remote: a bare clone of its parent's, with the hook that keeps maintainers to PR heads. */
export async function createForkBare(parent: string, bare: string): Promise<void> {
  if (fs.existsSync(path.join(bare, 'HEAD'))) return;
  fs.mkdirSync(path.dirname(bare), { recursive: true });
  await git(path.dirname(bare), ['clone', '--bare', '--quiet', '--no-local', parent, bare]);
  await git(bare, ['config', 'receive.autogc', 'false']);
  await git(bare, ['remote', 'remove', 'origin']);
  fs.writeFileSync(path.join(bare, 'hooks', 'pre-receive'), FORK_PRE_RECEIVE, { mode: 0o755 });
}

const SERVICES = ['git-upload-pack', 'git-receive-pack'] as const;
type Service = (typeof SERVICES)[number];

/**
 * Serves one smart-HTTP request as `git http-backend` would, but runs the service itself
 * (`git upload-pack` or `git receive-pack` with `--stateless-rpc`): one process per request, not
 * two. The caller has authenticated the request. The dumb protocol is refused, as GitHub does.
 */
export function serveGit(
  req: IncomingMessage,
  res: ServerResponse,
  options: {
    projectRoot: string;
    pathInfo: string;
    query: string;
    user: string;
    /** The refs a push may update, for a fork's hook; absent, any. */
    pushable?: readonly string[];
  },
): Promise<void> {
  const m = /^(\/.+?)\/(info\/refs|git-upload-pack|git-receive-pack)$/.exec(options.pathInfo);
  const root = path.resolve(options.projectRoot);
  const repo = m && path.resolve(root, `.${m[1]}`);
  const service = m?.[2] === 'info/refs' ? new URLSearchParams(options.query).get('service') : m?.[2];
  const reply = (status: number, text: string) => {
    req.resume();
    res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
    return Promise.resolve();
  };
  if (!repo?.startsWith(`${root}${path.sep}`) || !fs.existsSync(path.join(repo, 'HEAD')))
    return reply(404, 'Repository not found.');
  if (!SERVICES.includes(service as Service)) return reply(403, 'The dumb HTTP protocol is not served.');
  const advertise = m![2] === 'info/refs';
  if (req.method !== (advertise ? 'GET' : 'POST')) return reply(405, `${req.method} is not allowed here.`);
  const protocol = req.headers['git-protocol'] ? String(req.headers['git-protocol']) : undefined;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    ...(protocol && { GIT_PROTOCOL: protocol }),
    ...(options.pushable && { SIM_PUSHABLE_REFS: options.pushable.join(' ') }),
    // What http-backend sets for a push: the ref updates are made by the authenticated user.
    GIT_COMMITTER_NAME: options.user,
    GIT_COMMITTER_EMAIL: `${options.user}@http.${req.socket.remoteAddress ?? '127.0.0.1'}`,
  };
  const name = service!.replace(/^git-/, '');
  const args = [name, '--stateless-rpc', ...(advertise ? ['--http-backend-info-refs'] : []), repo];
  return new Promise((resolve) => {
    const child = spawn('git', args, { env, stdio: [advertise ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (!advertise) {
      const encoding = req.headers['content-encoding'];
      const body = encoding === 'gzip' || encoding === 'x-gzip' ? req.pipe(zlib.createGunzip()) : req;
      body.on('error', () => child.kill());
      body.pipe(child.stdin!);
      child.stdin!.on('error', () => {});
    } else req.resume();
    const head = () => {
      if (res.headersSent) return;
      res.writeHead(200, {
        'content-type': `application/x-${service}-${advertise ? 'advertisement' : 'result'}`,
        expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
        pragma: 'no-cache',
        'cache-control': 'no-cache, max-age=0, must-revalidate',
      });
      // A v0 advertisement starts by naming its service; a v2 one is the capability list alone.
      if (advertise && !/(^|:)version=2(:|$)/.test(protocol ?? '')) {
        const line = `# service=${service}\n`;
        res.write(`${(line.length + 4).toString(16).padStart(4, '0')}${line}0000`);
      }
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      head();
      res.write(chunk);
    });
    let stderr = '';
    child.stderr!.on('data', (d) => {
      stderr += d;
    });
    let ended = false;
    const done = (code: number | null, error?: Error) => {
      if (ended) return;
      ended = true;
      if (!res.headersSent) {
        if (code === 0) head();
        else
          res
            .writeHead(500, { 'content-type': 'text/plain' })
            .write(`git ${name} failed (${code}): ${error?.message ?? stderr}`);
      }
      res.end();
      resolve();
    };
    child.on('error', (e) => done(null, e));
    child.on('close', (code) => done(code));
  });
}
