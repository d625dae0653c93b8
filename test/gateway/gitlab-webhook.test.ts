import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_GITLAB_WEBHOOK_BYTES } from '../../src/forges/gitlab/gitlab-webhooks.js';
import {
  deliver as deliverGitHub,
  labelPayload,
  newDeliveryId,
  SECRET,
  startTestServer,
  type TestServer,
  TRIGGER,
} from './gateway-harness.js';

// POST /webhooks on a booty that serves GitLab (BOOTY_FORGE=gitlab): GitLab's headers and hooks.
// Every bad request gets its status and a JSON error with a stable code, stores no job and records
// no delivery (a resend after a fix is not taken for a duplicate), and the server serves the next.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    env: {
      BOOTY_FORGE: 'gitlab',
      GITLAB_WEBHOOK_SECRET: SECRET,
      GITLAB_WEBHOOK_SECRET_PREVIOUS: 'previous-gitlab-token',
      GITLAB_TOKEN: 'glpat-gateway-test-token-0000',
    },
  });
});
afterAll(() => s.close());

/** An Issue Hook for a label change on group/project#iid, as GitLab sends it. */
function issueHook(options: { label?: string; iid?: number; previous?: string[] } = {}) {
  const label = options.label ?? TRIGGER;
  const current = [...(options.previous ?? []), label].map((title) => ({ id: 1, title }));
  return {
    object_kind: 'issue',
    event_type: 'issue',
    user: { id: 1, username: 'root', name: 'Administrator' },
    project: {
      id: 7,
      path_with_namespace: 'group/sub/project',
      web_url: 'http://gitlab.test/group/sub/project',
    },
    object_attributes: {
      id: 301,
      iid: options.iid ?? 9,
      title: 'Add a parser',
      description: 'It should parse.',
      state: 'opened',
      action: 'update',
      url: 'http://gitlab.test/group/sub/project/-/issues/9',
    },
    labels: current,
    changes: {
      labels: { previous: (options.previous ?? []).map((title) => ({ id: 1, title })), current },
    },
  };
}

interface GlDelivery {
  uuid?: string | null;
  event?: string | null;
  token?: string | null;
  payload?: unknown;
  body?: string;
}

async function deliver(d: GlDelivery) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = d.token === undefined ? SECRET : d.token;
  const event = d.event === undefined ? 'Issue Hook' : d.event;
  const uuid = d.uuid === undefined ? randomUUID() : d.uuid;
  if (token !== null) headers['x-gitlab-token'] = token;
  if (event !== null) headers['x-gitlab-event'] = event;
  if (uuid !== null) headers['x-gitlab-event-uuid'] = uuid;
  const body = d.body ?? JSON.stringify(d.payload ?? issueHook({ label: 'bug' }));
  const res = await fetch(`${s.url}/webhooks`, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as any };
}

const rows: { name: string; delivery: () => GlDelivery; status: number; code: string }[] = [
  { name: 'a missing token', delivery: () => ({ token: null }), status: 401, code: 'BOOTY_E_WEBHOOK_TOKEN' },
  {
    name: 'a wrong token',
    delivery: () => ({ token: 'not-the-token' }),
    status: 401,
    code: 'BOOTY_E_WEBHOOK_TOKEN',
  },
  {
    name: 'a missing X-Gitlab-Event header',
    delivery: () => ({ event: null }),
    status: 400,
    code: 'BOOTY_E_WEBHOOK_HEADER',
  },
  {
    name: 'an X-Gitlab-Event that names no hook',
    delivery: () => ({ event: 'issues' }),
    status: 400,
    code: 'BOOTY_E_WEBHOOK_HEADER',
  },
  {
    name: 'a missing X-Gitlab-Event-UUID header',
    delivery: () => ({ uuid: null }),
    status: 400,
    code: 'BOOTY_E_WEBHOOK_HEADER',
  },
  {
    name: 'a body that is not JSON',
    delivery: () => ({ body: '{"object_kind": oops' }),
    status: 400,
    code: 'BOOTY_E_WEBHOOK_NOT_JSON',
  },
  {
    name: 'an Issue Hook without its iid',
    delivery: () => {
      const p = issueHook() as any;
      delete p.object_attributes.iid;
      return { payload: p };
    },
    status: 400,
    code: 'BOOTY_E_WEBHOOK_PAYLOAD',
  },
  {
    name: 'a body over 25 MB',
    delivery: () => ({ body: `{"pad":"${'x'.repeat(MAX_GITLAB_WEBHOOK_BYTES)}"}` }),
    status: 413,
    code: 'BOOTY_E_WEBHOOK_TOO_LARGE',
  },
];

describe('bad input to POST /webhooks from GitLab', () => {
  it.each(rows)('answers $name with $status $code, stores nothing and keeps serving', async (row) => {
    const uuid = randomUUID();
    const given = row.delivery();
    const r = await deliver({ uuid, ...given });
    expect(r.status).toBe(row.status);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error.code).toBe(row.code);
    expect(await s.store.listJobs()).toEqual([]);

    // The same UUID, now well formed, is new to the gateway: the bad one was not recorded.
    const next = await deliver({ uuid: given.uuid === null ? randomUUID() : uuid });
    expect(next).toMatchObject({ status: 202, body: { ignored: true } });
  });

  it('takes the previous token while a rotation is under way', async () => {
    expect((await deliver({ token: 'previous-gitlab-token' })).status).toBe(202);
  });

  it('answers a repeated X-Gitlab-Event-UUID with 200 {duplicate: true}', async () => {
    const uuid = randomUUID();
    expect((await deliver({ uuid })).status).toBe(202);
    expect(await deliver({ uuid })).toMatchObject({ status: 200, body: { duplicate: true } });
  });

  it('starts a job for the trigger label on a project in a subgroup, once for a resent hook', async () => {
    const uuid = randomUUID();
    const payload = issueHook({ iid: 12 });
    const first = await deliver({ uuid, payload });
    expect(first.status).toBe(202);
    expect(await deliver({ uuid, payload })).toMatchObject({ status: 200, body: { duplicate: true } });
    const jobs = await s.store.listJobs();
    expect(jobs.map((j) => [j.repo, j.issue])).toEqual([['gitlab:group/sub/project', 12]]);
  });
});

describe('a booty serving GitHub and GitLab at once', () => {
  it('takes each forge on its own route, and /webhooks stays GitHub’s', async () => {
    const both = await startTestServer({
      env: { GITLAB_WEBHOOK_SECRET: 'gitlab-token-both', GITLAB_TOKEN: 'glpat-both-forges-token-000' },
    });
    try {
      const gitlab = (path: string) =>
        fetch(`${both.url}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-gitlab-token': 'gitlab-token-both',
            'x-gitlab-event': 'Issue Hook',
            'x-gitlab-event-uuid': randomUUID(),
          },
          body: JSON.stringify(issueHook({ iid: 5 })),
        });
      expect((await gitlab('/webhooks/gitlab')).status).toBe(202);
      // GitHub's route reads GitHub's headers: a GitLab hook there is refused, and stores nothing.
      expect((await gitlab('/webhooks')).status).toBe(401);
      expect((await gitlab('/webhooks/github')).status).toBe(401);
      const github = await deliverGitHub(both.url, {
        deliveryId: newDeliveryId(),
        payload: labelPayload('labeled', { issue: 6 }),
      });
      expect(github.status).toBe(202);
      const jobs = await both.store.listJobs();
      expect(jobs.map((j) => [j.repo, j.issue]).sort()).toEqual([
        ['Codertocat/Hello-World', 6],
        ['gitlab:group/sub/project', 5],
      ]);
    } finally {
      await both.close();
    }
  });
});
