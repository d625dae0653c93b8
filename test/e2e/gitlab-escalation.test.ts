import { describe, expect, it } from 'vitest';
import { createGitLabClients } from '../../src/forges/gitlab/clients.js';
import { escalate } from '../../src/forges/gitlab/issues.js';
import { foldJob } from '../../src/machines/fold.js';
import { jobView } from '../../src/machines/job-context.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { crashingServe } from './fixtures/crashing-serve.js';
import { GL_TOKEN, gitlabWorld, PROJECT } from './gitlab-world.js';

// A job that gives up on GitLab, with `escalate` in .gitlab/booty.yml: `booty serve` posts one note
// that calls on the people by name (GitLab has no review request booty could check) and links
// booty's progress note for why, rather than saying it again. The escalation run once more, as a
// restart between the note and its event would, finds the note and posts none.

describe('escalation on GitLab', () => {
  it('a job that gives up asks the named people once, in a note that links the progress note', async () => {
    const world = await gitlabWorld('exhausted', 'maxAttempts: 1\nescalate: ["alice", "demo/reviewers"]');
    try {
      const env = world.env();
      const booty = crashingServe({ env, github: world.hooked }, null);
      await booty.start();
      world.label();
      await booty.settled('prOpened');
      await booty.stop();

      const store = new SqliteEventStore(env.BOOTY_DB!);
      const [row] = await store.listJobs();
      const job = jobView(foldJob(await store.readStream(row!.jobId)).context);
      await store.close();
      expect(job.checkpoints.escalation).toMatchObject({
        on: 'pr',
        users: ['alice'],
        teams: ['demo/reviewers'],
      });
      // One attempt of one, its tests failing: the job gave up, and says why in its progress note.
      expect(job.attempt).toBe(1);
      expect(job.outcome?.reason).toBe('tests-failing');

      const asking = () => world.notes().filter((n) => n.body.includes('booty gave up on this issue'));
      const progress = world.notes().find((n) => n.body.includes('<!-- booty:progress'))!;
      expect(asking()).toHaveLength(1);
      const body = asking()[0]!.body;
      expect(body).toContain('@alice, @demo/reviewers: booty gave up on this issue');
      expect(body).toContain('the draft merge request !1');
      // The progress note as GitLab shows it, and why the job stopped is left to it.
      expect(body).toContain(
        `[booty's progress comment](${world.gitlab.url}/${PROJECT}/-/issues/${world.issue}#note_${progress.id})`,
      );
      expect(body).not.toContain(job.outcome!.message);
      expect(progress.body).toContain('**Escalated:**');

      const clients = createGitLabClients({ url: world.gitlab.url, token: GL_TOKEN });
      await escalate(clients)({
        key: `${job.jobId}:escalate:1`,
        step: 'escalate',
        attempt: 1,
        notBefore: null,
        job,
      });
      expect(asking()).toHaveLength(1);
    } finally {
      await world.close();
    }
  }, 60_000);
});
