import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import { mergeChanges } from '../../src/machines/job-context.js';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { makeRemote, nodeSample, sampleJob, tempDir } from '../fixtures/git-fixtures.js';
import { type GitHttpServer, startGitHttpServer } from '../fixtures/git-http-server.js';

// Over real smart HTTP with Basic auth, as against GitHub: the token works, and afterwards it is
// nowhere on disk, in no log line and in no error.

const token = `ghp_${randomBytes(18).toString('hex')}`;
const basic = (user: string, pass: string) => Buffer.from(`${user}:${pass}`).toString('base64');
const author = { name: 'booty[bot]', email: 'booty@example.test' };
const signal = new AbortController().signal;

let base: string;
let server: GitHttpServer;
beforeEach(async () => {
  base = tempDir();
  server = await startGitHttpServer({ projectRoot: base, username: 'x-access-token', password: token });
});
afterEach(async () => {
  await server.close();
  fs.rmSync(base, { recursive: true, force: true });
});

function filesContaining(dir: string, needles: string[]): string[] {
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) {
        const text = fs.readFileSync(full).toString('latin1');
        if (needles.some((n) => text.includes(n))) hits.push(path.relative(dir, full));
      }
    }
  };
  walk(dir);
  return hits;
}

describe('credentials', () => {
  it('clones, fetches and pushes with the token, and leaves it in no file, log or config', async () => {
    const remote = makeRemote(base, nodeSample);
    const root = path.join(base, 'workdir');
    const lines: string[] = [];
    const log = {
      info: (...a: unknown[]) => lines.push(JSON.stringify(a)),
      warn: (...a: unknown[]) => lines.push(JSON.stringify(a)),
    };
    const ws = createWorkspace({
      root,
      remoteUrl: () => server.url('remote.git'),
      credentials: async () => ({ username: 'x-access-token', password: token }),
      author,
      log: log as never,
    });
    let job = sampleJob();
    const prepared = await ws.prepare(
      { key: 'k', step: 'prepare', attempt: 0, notBefore: null, job },
      { signal },
    );
    job = {
      ...job,
      workspace: { baseSha: prepared.baseSha, defaultBranch: 'main' },
      config: prepared.config,
    };
    job = { ...job, changes: mergeChanges([], [{ path: 'src/sum.js', content: 'exports.sum = 1;\n' }]) };
    fs.rmSync(path.join(root, 'jobs'), { recursive: true }); // also exercise a rebuild over HTTP
    await ws.idle();
    await ws.ensure(job);
    const { headSha } = await ws.commitAndPush({ job });
    await ws.idle();

    expect(remote.branchSha(job.branch)).toBe(headSha);
    expect(server.seen.length).toBeGreaterThan(0);
    expect(server.seen.every((h) => h === `Basic ${basic('x-access-token', token)}`)).toBe(true);
    const needles = [token, basic('x-access-token', token)];
    expect(filesContaining(root, needles)).toEqual([]);
    expect(fs.existsSync(path.join(root, 'spares/acme/widgets/.git'))).toBe(true);
    expect(fs.readFileSync(path.join(root, 'jobs/job-1/.git/config'), 'utf8')).not.toContain('extraheader');
    expect(fs.readFileSync(path.join(root, 'mirrors/acme/widgets.git/config'), 'utf8')).not.toContain(
      'extraheader',
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => needles.some((n) => l.includes(n)))).toEqual([]);
  });

  it('reports a refused token as an auth error, not retryable, without echoing it', async () => {
    makeRemote(base, nodeSample);
    const wrong = `ghp_${randomBytes(18).toString('hex')}`;
    const ws = createWorkspace({
      root: path.join(base, 'workdir'),
      remoteUrl: () => server.url('remote.git'),
      credentials: async () => ({ username: 'x-access-token', password: wrong }),
      author,
    });
    const err = await ws
      .prepare({ key: 'k', step: 'prepare', attempt: 0, notBefore: null, job: sampleJob() }, { signal })
      .catch((e: unknown) => e);
    expect(isBootyError(err, 'BOOTY_E_GIT_AUTH')).toBe(true);
    expect((err as { retryable: boolean }).retryable).toBe(false);
    const text = JSON.stringify({
      message: (err as Error).message,
      json: (err as { toJSON(): unknown }).toJSON(),
    });
    expect(text).not.toContain(wrong);
    expect(text).not.toContain(basic('x-access-token', wrong));
  });
});
