import { afterEach, describe, expect, it } from 'vitest';
import type { ReadIssue } from '../../src/gateway/jobs-write-routes.js';
import { cli } from '../support/cli.js';
import { startTestServer, type TestServer } from './gateway-harness.js';

// The jobs API with tokens: made by `booty token create` into the server's own store, shown as
// Bearer, checked on every request. A real server on 127.0.0.1 listening on every address (so no
// loopback exemption), a real SQLite file, scripted effects that hold each job in its first step.

const issues: ReadIssue = async (repo, number) => ({
  number,
  title: `Issue ${number} of ${repo.owner}/${repo.name}`,
  body: 'Make it so.',
  url: `https://github.com/${repo.owner}/${repo.name}/issues/${number}`,
});

const servers: TestServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

async function server(env: Record<string, string> = {}) {
  const s = await startTestServer({ env: { HOST: '0.0.0.0', ...env }, gated: true, readIssue: issues });
  servers.push(s);
  const base = s.url.replace(/\/\/[^:]+:/, '//127.0.0.1:');
  const call = async (method: string, route: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const token = async (scope: 'read' | 'write', name = `${scope}er`) => {
    const made = await cli(['token', 'create', '--scope', scope, '--name', name, '--db', s.db]);
    expect(made.code).toBe(0);
    return made.out;
  };
  return { s, base, call, token };
}

describe('the jobs API', () => {
  it('given no token or one it did not make, then every route answers 401 saying how to get one', async () => {
    const { call } = await server();
    for (const [method, route] of [
      ['GET', '/jobs'],
      ['GET', '/jobs/j1'],
      ['GET', '/jobs/j1/timeline'],
      ['POST', '/jobs/j1/cancel'],
      ['POST', '/jobs/j1/retry'],
    ] as const) {
      const res = await call(method, route);
      expect([route, res.status, res.body.error.code]).toEqual([route, 401, 'BOOTY_E_API_UNAUTHORIZED']);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="booty"');
    }
    const made = await call('GET', '/jobs', `booty_00000000_${'x'.repeat(43)}`);
    expect(made.status).toBe(401);
    expect(made.body.error.message).toBe(
      'the token is not one this booty made; send a token as `Authorization: Bearer <token>` (an operator makes one with `booty token create --scope read` or `--scope write`)',
    );
  });

  it('given a read token, then it reads jobs and may not start, cancel or retry one (403)', async () => {
    const { call, token } = await server();
    const reader = await token('read');
    expect((await call('GET', '/jobs', reader)).body).toEqual({ jobs: [] });
    const start = await call('POST', '/jobs', reader, { repo: 'acme/widgets', issue: 7 });
    expect([start.status, start.body.error.code]).toEqual([403, 'BOOTY_E_API_FORBIDDEN']);
    expect(start.body.error.message).toMatch(
      /^token [0-9a-f]{8} \(reader\) may only read; starting a job needs a token made with `booty token create --scope write`$/,
    );
    for (const action of ['cancel', 'retry']) {
      expect((await call('POST', `/jobs/j1/${action}`, reader)).status).toBe(403);
    }
    expect((await call('GET', '/jobs', reader)).body).toEqual({ jobs: [] });
  });

  it('given a write token, then it starts a job for an issue, cancels it, and runs it again as a fresh job', async () => {
    const { call, token } = await server();
    const writer = await token('write', 'ci');
    const started = await call('POST', '/jobs', writer, { repo: 'acme/widgets', issue: 7 });
    expect(started.status).toBe(201);
    expect(started.body.job).toMatchObject({ repo: 'acme/widgets', issue: 7, final: false });
    const { jobId } = started.body.job;
    // The issue has its job: asking again answers that job.
    const again = await call('POST', '/jobs', writer, { repo: 'acme/widgets', issue: 7 });
    expect([again.status, again.body.job.jobId]).toEqual([200, jobId]);
    // Only a finished job runs again.
    const early = await call('POST', `/jobs/${jobId}/retry`, writer);
    expect([early.status, early.body.error.code]).toEqual([409, 'BOOTY_E_JOB_NOT_RETRYABLE']);

    const cancelled = await call('POST', `/jobs/${jobId}/cancel`, writer);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.job).toMatchObject({ jobId, state: 'cancelled', final: true });
    const twice = await call('POST', `/jobs/${jobId}/cancel`, writer);
    expect([twice.status, twice.body.error.code]).toEqual([409, 'BOOTY_E_JOB_FINISHED']);

    const retried = await call('POST', `/jobs/${jobId}/retry`, writer);
    expect(retried.status).toBe(201);
    expect(retried.body.job).toMatchObject({ repo: 'acme/widgets', issue: 7, final: false });
    expect(retried.body.job.jobId).not.toBe(jobId);

    // The log says who did it, through the API.
    const { events } = (await call('GET', `/jobs/${jobId}`, writer)).body;
    expect(events.map((e: any) => e.type)).toEqual(['JobRequested', 'JobCancelled']);
    expect(events[0].data).toMatchObject({
      sender: 'api:ci',
      issue: { number: 7, title: 'Issue 7 of acme/widgets' },
    });
    expect(events[1].data).toMatchObject({ reason: 'operator', sender: 'api:ci' });
    expect((await call('GET', '/jobs/nope', writer)).status).toBe(404);
    expect((await call('POST', '/jobs', writer, { repo: 'acme', issue: 7 })).status).toBe(400);
  });

  it('given a revoked token, then it fails at once, and the others still work', async () => {
    const { call, token, s } = await server();
    const kept = await token('read', 'kept');
    const gone = await token('write', 'gone');
    expect((await call('GET', '/jobs', gone)).status).toBe(200);
    const list = await cli(['token', 'list', '--json', '--db', s.db]);
    const id = JSON.parse(list.out).find((t: any) => t.name === 'gone').id;
    expect((await cli(['token', 'revoke', id, '--db', s.db])).out).toBe(`token ${id} is revoked`);
    const refused = await call('GET', '/jobs', gone);
    expect([refused.status, refused.body.error.message]).toEqual([
      401,
      `token ${id} (gone) was revoked; send a token as \`Authorization: Bearer <token>\` (an operator makes one with \`booty token create --scope read\` or \`--scope write\`)`,
    ]);
    expect((await call('GET', '/jobs', kept)).status).toBe(200);
    const again = await cli(['token', 'revoke', id, '--db', s.db]);
    expect([again.code, again.err]).toEqual([
      1,
      `booty token: no API token ${id}, or it was revoked already; list them with \`booty token list\` (BOOTY_E_API_TOKEN_UNKNOWN)`,
    ]);
  });

  it('given BOOTY_API_RATE_LIMIT=5, then the sixth request in a minute gets 429, counted per token', async () => {
    const { call, token } = await server({ BOOTY_API_RATE_LIMIT: '5' });
    const first = await token('read', 'one');
    const second = await token('read', 'two');
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await call('GET', '/jobs', first)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await call('GET', '/jobs', first);
    expect(limited.body.error.code).toBe('BOOTY_E_API_RATE_LIMITED');
    expect(limited.body.error.message).toMatch(
      /^over the jobs API's limit of 5 requests a minute \(BOOTY_API_RATE_LIMIT\); try again in (1 minute|\d+ seconds?)$/,
    );
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call('GET', '/jobs', second)).status).toBe(200);
    // Requests without a valid token share their address's count: guessing tokens is limited too.
    const guesses = [];
    for (let i = 0; i < 6; i++) guesses.push((await call('GET', '/jobs', `guess-${i}`)).status);
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('given the job view on, then a browser gives its token once through the form, and the cookie only reads', async () => {
    const { base, token } = await server({ BOOTY_DASHBOARD: 'on' });
    const reader = await token('read');
    const writer = await token('write');
    const asked = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
    expect(asked.status).toBe(401);
    const form = (tokenValue: string) =>
      fetch(`${base}/view/token`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokenValue, next: '/jobs/x/view' }).toString(),
      });
    expect((await form('not-a-token')).status).toBe(401);
    const given = await form(reader);
    expect(given.status).toBe(303);
    expect(given.headers.get('location')).toBe('/jobs/x/view');
    const cookie = given.headers.get('set-cookie')!.split(';')[0]!;
    expect(given.headers.get('set-cookie')).toContain('HttpOnly; SameSite=Lax');
    const page = await fetch(`${base}/`, { headers: { accept: 'text/html', cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>booty jobs</h1>');
    expect((await fetch(`${base}/jobs`, { headers: { cookie } })).status).toBe(200);
    // A write token's cookie still cannot write: no page elsewhere can make a browser start a job.
    const writerCookie = (await form(writer)).headers.get('set-cookie')!.split(';')[0]!;
    const post = await fetch(`${base}/jobs`, {
      method: 'POST',
      headers: { cookie: writerCookie, 'content-type': 'application/json' },
      body: JSON.stringify({ repo: 'acme/widgets', issue: 1 }),
    });
    expect(post.status).toBe(401);
  });

  it('given a server on loopback, then it answers without a token, and still refuses a read token’s write', async () => {
    const s = await startTestServer({ env: { HOST: '127.0.0.1' }, gated: true, readIssue: issues });
    servers.push(s);
    const open = await fetch(`${s.url}/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ repo: 'acme/widgets', issue: 3 }),
    });
    expect(open.status).toBe(201);
    expect(((await open.json()) as any).job.issue).toBe(3);
    const reader = (await cli(['token', 'create', '--scope', 'read', '--db', s.db])).out;
    const refused = await fetch(`${s.url}/jobs/x/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(refused.status).toBe(403);
  });
});
