import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { createLogger } from '../../src/log.js';
import { startBooty } from '../../src/main/serve.js';
import { gitlabWorld } from './gitlab-world.js';

// A booty configured for GitHub and GitLab at once runs a GitLab job: the hook on /webhooks/gitlab,
// every effect on GitLab (the GitHub it is also configured for is never called).

describe('a booty serving both forges', () => {
  it('runs a GitLab job to a ready merge request through its own route', async () => {
    const world = await gitlabWorld('pass');
    const env = world.env({ GITHUB_TOKEN: `ghp_${'b'.repeat(36)}`, GITHUB_WEBHOOK_SECRET: 'github-secret' });
    delete env.BOOTY_FORGE;
    // Nothing listens here: a call to GitHub would fail the job.
    env.GITHUB_API_URL = 'http://127.0.0.1:9';
    const booty = await startBooty({ env: loadEnv(env), log: createLogger({ level: 'silent' }) });
    try {
      world.gitlab.setWebhook({
        url: `${booty.server.url}/webhooks/gitlab`,
        token: env.GITLAB_WEBHOOK_SECRET!,
      });
      world.label();
      await world.gitlab.settled();
      const [job] = await booty.store.listJobs();
      expect(job?.repo).toBe('gitlab:demo/tiny-durations');
      await booty.server.supervisor.whenFinished(job!.jobId);
      await world.gitlab.settled();
      expect((await booty.store.listJobs())[0]).toMatchObject({ state: 'promoted', attempts: 1 });
      expect(world.mergeRequests().map((mr) => mr.title.startsWith('Draft:'))).toEqual([false]);
      expect(world.notes().filter((n) => n.body.includes('booty:progress'))).toHaveLength(1);
    } finally {
      await booty.close();
      await world.close();
    }
  });
});
