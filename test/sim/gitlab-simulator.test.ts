import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitLabSimulator } from '../../sim/gitlab/gitlab-simulator.js';
import { createGitLabClients } from '../../src/forges/gitlab/clients.js';
import { repoOfPath } from '../../src/forges/gitlab/intents.js';
import { allNotes } from '../../src/forges/gitlab/notes.js';
import { tempDir } from '../support/job-harness.js';

// The GitLab simulator as a client sees it: REST v4 answers, GitLab's webhook headers, and a push
// over smart HTTP moving an open merge request.

const run = promisify(execFile);
const TOKEN = 'glpat-sim-test-token-00000000';
const PROJECT = 'group/sub/app';

interface Hook {
  headers: http.IncomingHttpHeaders;
  body: any;
}

let sim: Awaited<ReturnType<typeof startGitLabSimulator>>;
let hooks: Hook[] = [];
let receiver: http.Server;
const api = (p: string, init: RequestInit = {}) =>
  fetch(`${sim.url}/api/v4/projects/${encodeURIComponent(PROJECT)}${p}`, {
    ...init,
    headers: { 'private-token': TOKEN, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => {
      text += c;
    });
    req.on('end', () => {
      hooks.push({ headers: req.headers, body: JSON.parse(text) });
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const dir = tempDir('booty-gitlab-sim-');
  const seed = path.join(dir, 'seed');
  fs.mkdirSync(seed);
  fs.writeFileSync(path.join(seed, 'README.md'), 'hello\n');
  sim = await startGitLabSimulator({
    dir: path.join(dir, 'gitlab'),
    tokens: [{ token: TOKEN, username: 'bot' }],
    webhook: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, token: 'hook-secret' },
  });
  await sim.createProject(PROJECT, { fromDir: seed });
});
afterAll(async () => {
  await sim.close();
  receiver.close();
});

describe('the GitLab simulator', () => {
  it("sends an Issue Hook with GitLab's headers when a label is added", async () => {
    hooks = [];
    const issue = sim.createIssue(PROJECT, { title: 'T', body: 'B', author: 'alice' });
    sim.labelIssue(PROJECT, issue.iid, 'booty');
    await sim.settled();
    const labeled = hooks.at(-1)!;
    expect(labeled.headers).toMatchObject({
      'x-gitlab-event': 'Issue Hook',
      'x-gitlab-token': 'hook-secret',
    });
    expect(labeled.headers['x-gitlab-event-uuid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(labeled.body).toMatchObject({
      object_kind: 'issue',
      project: { path_with_namespace: PROJECT },
      object_attributes: { iid: issue.iid, action: 'update' },
      changes: { labels: { previous: [], current: [{ title: 'booty' }] } },
    });
  });

  it('refuses a request without a token (401) and a project the token cannot see (404)', async () => {
    const anon = await fetch(`${sim.url}/api/v4/projects/${encodeURIComponent(PROJECT)}`);
    expect(anon.status).toBe(401);
    const other = await fetch(`${sim.url}/api/v4/projects/nobody%2Fnothing`, {
      headers: { 'private-token': TOKEN },
    });
    expect(other.status).toBe(404);
  });

  it('opens a draft MR by its title, moves it on a push, and marks it ready by the title', async () => {
    const dir = tempDir('booty-gitlab-sim-clone-');
    const remote = `${sim.url.replace('http://', `http://bot:${TOKEN}@`)}/${PROJECT}.git`;
    await run('git', ['clone', '--quiet', remote, dir]);
    const commit = async (file: string) => {
      fs.writeFileSync(path.join(dir, file), file);
      await run('git', ['-C', dir, 'add', '.']);
      await run('git', [
        '-C',
        dir,
        '-c',
        'user.name=t',
        '-c',
        'user.email=t@t',
        'commit',
        '--quiet',
        '-m',
        file,
      ]);
      await run('git', ['-C', dir, 'push', '--quiet', 'origin', 'HEAD:refs/heads/booty/x']);
      return (await run('git', ['-C', dir, 'rev-parse', 'HEAD'])).stdout.trim();
    };
    const first = await commit('a.txt');
    const created = await api('/merge_requests', {
      method: 'POST',
      body: JSON.stringify({ source_branch: 'booty/x', target_branch: 'main', title: 'Draft: fix: x' }),
    });
    expect(created.status).toBe(201);
    const mr = (await created.json()) as any;
    expect(mr).toMatchObject({ iid: 1, draft: true, sha: first, source_branch: 'booty/x' });
    const again = await api('/merge_requests', {
      method: 'POST',
      body: JSON.stringify({ source_branch: 'booty/x', target_branch: 'main', title: 'again' }),
    });
    expect(again.status).toBe(409);

    hooks = [];
    const second = await commit('b.txt');
    await sim.settled();
    expect(
      hooks.map((h) => [
        h.headers['x-gitlab-event'],
        h.body.object_attributes.action,
        h.body.object_attributes.oldrev,
      ]),
    ).toEqual([['Merge Request Hook', 'update', first]]);
    expect(((await (await api('/merge_requests/1')).json()) as any).sha).toBe(second);

    const ready = await api('/merge_requests/1', {
      method: 'PUT',
      body: JSON.stringify({ title: 'fix: x' }),
    });
    expect(((await ready.json()) as any).draft).toBe(false);
  });

  it('gives one eyes award per user, refusing the second', async () => {
    const first = await api('/issues/1/award_emoji', {
      method: 'POST',
      body: JSON.stringify({ name: 'eyes' }),
    });
    expect(first.status).toBe(201);
    const second = await api('/issues/1/award_emoji', {
      method: 'POST',
      body: JSON.stringify({ name: 'eyes' }),
    });
    expect(second.status).toBe(404);
    expect(JSON.stringify(await second.json())).toContain('has already been taken');
  });

  it("pages a long list with GitLab's Link and x- headers, which gitbeaker follows to the end", async () => {
    const issue = sim.createIssue(PROJECT, { title: 'Long', body: 'B', author: 'alice' });
    for (let i = 0; i < 105; i++) sim.comment(PROJECT, { issue: issue.iid }, 'alice', `note ${i}`);
    await sim.settled();
    const first = await api(`/issues/${issue.iid}/notes?per_page=100&sort=asc`);
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('link')).toMatch(/[?&]page=2[^>]*>; rel="next"/);
    const clients = createGitLabClients({ url: sim.url, token: TOKEN });
    const notes = await allNotes(clients, repoOfPath(PROJECT), { kind: 'issues', iid: issue.iid });
    expect(notes.map((n) => n.body)).toEqual(Array.from({ length: 105 }, (_, i) => `note ${i}`));
    clients.stop();
    await expect(allNotes(clients, repoOfPath(PROJECT), { kind: 'issues', iid: issue.iid })).rejects.toThrow(
      /shutting down/,
    );
  });
});
