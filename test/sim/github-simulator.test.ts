import { createServer } from 'node:http';
import { verify } from '@octokit/webhooks-methods';
import { afterEach, describe, expect, it } from 'vitest';
import { pushBranch, sampleDir, simFixture, TOKEN } from '../forges/github/sim-fixture.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function started(options = {}) {
  const f = await simFixture(options);
  closers.push(() => f.sim.close());
  await f.sim.createRepo('acme', 'widgets', { fromDir: sampleDir() });
  return f;
}

const api = (url: string, path: string, init: RequestInit = {}) =>
  fetch(`${url}${path}`, {
    ...init,
    headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json', ...init.headers },
  });

describe('GitHub simulator', () => {
  it('rejects a request that breaks the OpenAPI description with GitHub 422 and 400 shapes', async () => {
    const { sim } = await started();
    sim.createIssue('acme', 'widgets', { title: 'x' });
    const missing = await api(sim.url, '/repos/acme/widgets/pulls', {
      method: 'POST',
      body: JSON.stringify({ base: 'main' }),
    });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      message: 'Invalid request.\n\n"head" wasn\'t supplied.',
      documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
      status: '422',
    });
    const badEnum = await api(sim.url, '/repos/acme/widgets/issues/1/reactions', {
      method: 'POST',
      body: '{"content":"eye"}',
    });
    expect(badEnum.status).toBe(422);
    expect(((await badEnum.json()) as { message: string }).message).toContain(
      `For 'content', "eye" is not a member of`,
    );
    const badQuery = await api(sim.url, '/repos/acme/widgets/pulls?state=bogus');
    expect(badQuery.status).toBe(422);
    const notJson = await api(sim.url, '/repos/acme/widgets/issues/1/comments', {
      method: 'POST',
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { message: string }).message).toBe('Problems parsing JSON');
    const anonymous = await fetch(`${sim.url}/repos/acme/widgets/issues/1`);
    expect(anonymous.status).toBe(401);
    expect(sim.comments('acme', 'widgets')).toEqual([]);
  });

  it('validates GraphQL documents against GitHub schema', async () => {
    const { sim } = await started();
    const res = await api(sim.url, '/graphql', {
      method: 'POST',
      body: JSON.stringify({
        query:
          'mutation { markPullRequestReadyForReview(input: { pullRequestId: "x" }) { pullRequest { isDrafty } } }',
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { errors: { message: string }[] };
    expect(body.errors[0]!.message).toBe(
      'Cannot query field "isDrafty" on type "PullRequest". Did you mean "isDraft"?',
    );
  });

  it('refuses to open a second PR for the same head, and one without commits', async () => {
    const { sim, clients } = await started();
    const gh = await clients.forRepo({ forge: 'github' as const, owner: 'acme', name: 'widgets' });
    const empty = await gh.rest.pulls
      .create({ owner: 'acme', repo: 'widgets', head: 'main', base: 'main', title: 't' })
      .catch((e) => e);
    expect(empty.status).toBe(422);
    await pushBranch(
      `${sim.url}/acme/widgets.git`,
      { username: 'x-access-token', password: TOKEN },
      'feature',
    );
    await gh.rest.pulls.create({ owner: 'acme', repo: 'widgets', head: 'feature', base: 'main', title: 't' });
    const again = await gh.rest.pulls
      .create({
        owner: 'acme',
        repo: 'widgets',
        head: 'feature',
        base: 'main',
        title: 't',
        request: { retries: 0 },
      })
      .catch((e) => e);
    expect(again.status).toBe(422);
    expect(again.response.data.errors[0].message).toBe('A pull request already exists for acme:feature.');
    expect(sim.pulls('acme', 'widgets')).toHaveLength(1);
  });

  it('serves git over smart HTTP only with a valid credential', async () => {
    const { sim } = await started();
    const remote = `${sim.url}/acme/widgets.git`;
    await expect(
      pushBranch(remote, { username: 'x-access-token', password: 'ghp_wrong' }, 'b'),
    ).rejects.toThrow(/terminal prompts disabled|Authentication failed/);
    const sha = await pushBranch(remote, { username: 'x-access-token', password: TOKEN }, 'b');
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('sends issues.labeled signed with the secret and GitHub headers, retrying a failed delivery', async () => {
    const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    let failFirst = true;
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(failFirst ? 500 : 202).end();
        failFirst = false;
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => receiver.close(() => r())));
    const port = (receiver.address() as { port: number }).port;
    const { sim } = await started({
      webhook: { url: `http://127.0.0.1:${port}/webhooks`, secret: 's3cret', retryDelayMs: 1 },
    });
    const issue = sim.createIssue('acme', 'widgets', { title: 'Add add()', body: 'please' });

    const delivery = await sim.labelIssue('acme', 'widgets', issue.number, 'booty', { sender: 'alice' });

    expect(delivery).toMatchObject({
      attempts: 2,
      status: 202,
      error: null,
      event: 'issues',
      action: 'labeled',
    });
    expect(received).toHaveLength(2);
    const { headers, body } = received[1]!;
    expect(headers['x-github-event']).toBe('issues');
    expect(headers['x-github-delivery']).toBe(delivery.id);
    expect(headers['x-github-delivery']).toBe(received[0]!.headers['x-github-delivery']);
    expect(headers['user-agent']).toMatch(/^GitHub-Hookshot\//);
    expect(headers['content-type']).toBe('application/json');
    expect(await verify('s3cret', body, String(headers['x-hub-signature-256']))).toBe(true);
    const payload = JSON.parse(body);
    expect(payload).toMatchObject({
      action: 'labeled',
      label: { name: 'booty' },
      issue: { number: issue.number, title: 'Add add()', body: 'please', state: 'open' },
      repository: { name: 'widgets', full_name: 'acme/widgets', owner: { login: 'acme' } },
      sender: { login: 'alice' },
    });
    expect(payload.issue.labels.map((l: { name: string }) => l.name)).toEqual(['booty']);
  });

  it('sends issues.closed without a label, and redelivers with the same delivery id', async () => {
    const bodies: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        bodies.push(`${req.headers['x-github-delivery']} ${body}`);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => receiver.close(() => r())));
    const port = (receiver.address() as { port: number }).port;
    const { sim } = await started({ webhook: { url: `http://127.0.0.1:${port}/`, secret: 's' } });
    const issue = sim.createIssue('acme', 'widgets', { title: 'x' });

    const closed = await sim.closeIssue('acme', 'widgets', issue.number);
    const again = await sim.redeliver(closed.id);

    expect(again).toMatchObject({ id: closed.id, attempts: 2, status: 204 });
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toBe(bodies[1]);
    const payload = JSON.parse(bodies[0]!.slice(closed.id.length + 1));
    expect(payload.action).toBe('closed');
    expect(payload.issue.state).toBe('closed');
    expect(payload.label).toBeUndefined();
  });

  it('keeps its state across a restart in the same directory', async () => {
    const first = await started();
    first.sim.createIssue('acme', 'widgets', { title: 'one' });
    await first.sim.close();
    const again = await simFixture({ dir: first.dir });
    closers.push(() => again.sim.close());
    const second = again.sim.createIssue('acme', 'widgets', { title: 'two' });
    expect(second.number).toBe(2);
    const gh = await again.clients.forRepo({ forge: 'github' as const, owner: 'acme', name: 'widgets' });
    const { data } = await gh.rest.issues.get({ owner: 'acme', repo: 'widgets', issue_number: 1 });
    expect(data.title).toBe('one');
  });
});

describe('webhook subscriptions', () => {
  it('sends only the events a webhook is subscribed to, and records no delivery for the others', async () => {
    const { startWebhookReceiver } = await import('../support/webhook-receiver.js');
    const hooks = await startWebhookReceiver('s');
    closers.push(() => hooks.close());
    const { sim } = await started({ webhook: { ...hooks.target, events: ['issue_comment'] } });
    const issue = sim.createIssue('acme', 'widgets', { title: 'x' });
    await expect(sim.labelIssue('acme', 'widgets', issue.number, 'booty')).rejects.toThrow(
      'the webhook is not subscribed to issues events',
    );
    await api(sim.url, `/repos/acme/widgets/issues/${issue.number}/comments`, {
      method: 'POST',
      body: JSON.stringify({ body: 'hello' }),
    });
    await sim.settled();
    expect(hooks.names()).toEqual(['issue_comment.created']);
    expect(sim.deliveries().map((d) => d.event)).toEqual(['issue_comment']);
  });
});

describe('reply shapes', () => {
  it('answers the App, repository, issue and comment operations in the shapes GitHub describes', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { Octokit } = await import('@octokit/rest');
    const { createAppAuth } = await import('@octokit/auth-app');
    const { sim } = await started({ checkReplies: true });
    sim.createIssue('acme', 'widgets', { title: 't' });
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const { appId, installationId } = sim.installApp({ publicKey, account: 'acme' });
    const asApp = new Octokit({ baseUrl: sim.url, authStrategy: createAppAuth, auth: { appId, privateKey } });
    const gh = new Octokit({
      baseUrl: sim.url,
      authStrategy: createAppAuth,
      auth: { appId, privateKey, installationId },
    });
    const where = { owner: 'acme', repo: 'widgets' };

    await asApp.rest.apps.getAuthenticated();
    await asApp.rest.apps.getRepoInstallation(where);
    await gh.rest.repos.get(where);
    await gh.rest.issues.get({ ...where, issue_number: 1 });
    const { data: comment } = await gh.rest.issues.createComment({ ...where, issue_number: 1, body: 'x' });
    await gh.rest.issues.updateComment({ ...where, comment_id: comment.id, body: 'y' });
    await gh.rest.issues.listComments({ ...where, issue_number: 1 });
    await gh.rest.reactions.createForIssue({ ...where, issue_number: 1, content: 'eyes' });
    await gh.rest.pulls.list(where);

    expect(sim.requests().filter((r) => r.operation !== null && r.status >= 400)).toEqual([]);
    expect(sim.problems()).toEqual([]);
  });
});
