import { describe, expect, it } from 'vitest';
import { ACCESS } from '../../../sim/gitlab/gitlab-simulator.js';
import { loadEnv } from '../../../src/env.js';
import { notOnPersonMr } from '../../../src/forges/gitlab/classify-note.js';
import { createGitLabClients } from '../../../src/forges/gitlab/clients.js';
import { createLogger } from '../../../src/log.js';
import { startBooty } from '../../../src/main/serve.js';
import { GL_BOT, gitlabWorld, PROJECT } from '../../e2e/gitlab-world.js';
import { pushBranch } from '../github/sim-fixture.js';

// A merge request a person opened on GitLab is not booty's to work on yet: a writer who calls on
// @booty there hears so once, in a note on the MR; anything else there is ignored without a word,
// and no job starts.

describe('@booty on a merge request a person opened, on GitLab', () => {
  it('answers a writer once, and nothing else', async () => {
    const world = await gitlabWorld('pass');
    const booty = await startBooty({ env: loadEnv(world.env()), log: createLogger({ level: 'silent' }) });
    try {
      const { gitlab } = world;
      gitlab.setWebhook({ url: `${booty.server.url}/webhooks`, token: world.env().GITLAB_WEBHOOK_SECRET! });
      gitlab.setRole(PROJECT, 'alice', ACCESS.developer);
      gitlab.setRole(PROJECT, 'eve', ACCESS.reporter);
      const aliceToken = `glpat-${'alice'.repeat(4)}`;
      gitlab.addToken(aliceToken, 'alice');
      const alice = createGitLabClients({ url: gitlab.url, token: aliceToken });
      const repo = { forge: 'gitlab' as const, owner: 'demo', name: 'tiny-durations' };
      await pushBranch(alice.gitRemoteUrl(repo), alice.gitCredentials(), 'fix-typo');
      const mr = await alice.call((gl) =>
        gl.MergeRequests.create(alice.project(repo), 'fix-typo', 'main', 'Fix a typo'),
      );
      const replies = () => gitlab.mergeRequests(PROJECT)[0]!.notes.filter((n) => n.author === GL_BOT);

      gitlab.comment(PROJECT, { mr: mr.iid }, 'alice', 'looks good to me');
      gitlab.comment(PROJECT, { mr: mr.iid }, 'eve', '@booty please add a test');
      await gitlab.settled();
      expect(replies()).toEqual([]);

      const asked = gitlab.comment(PROJECT, { mr: mr.iid }, 'alice', '@booty please add a test');
      await gitlab.settled();
      // GitLab resends the hook of alice's note, as it does after a timeout: the same UUID.
      const hook = gitlab.deliveries().find((d) => JSON.parse(d.body).object_attributes.id === asked.id)!;
      expect(hook.status).toBe(202);
      await gitlab.redeliver(hook.uuid);
      await gitlab.settled();
      expect(hook.status).toBe(200);

      expect(replies().map((n) => n.body)).toEqual([
        `<!-- booty:ignored comment=${asked.id} -->\n@alice ${notOnPersonMr('booty')}`,
      ]);
      expect(notOnPersonMr('booty')).toBe(
        'booty does not yet work on merge requests it did not open on GitLab. Ask on the issue instead, where `@booty <what to do>` starts a job, or label the issue `booty`.',
      );
      expect(await booty.store.listJobs()).toEqual([]);
    } finally {
      await booty.close();
      await world.close();
    }
  });
});
