import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import subset from '../../sim/gitlab/api-subset.json' with { type: 'json' };
import type { ServedCall } from '../../sim/gitlab/gitlab-sim-calls.js';
import type { GlState } from '../../sim/gitlab/gitlab-sim-state.js';
import { catalogue, isEventType } from '../../src/events/catalogue.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/job-harness.js';
import { booty, lastJson } from './cli-process.js';

// `booty demo --forge gitlab` as a user runs it: the real CLI, offline, with the GitLab simulator
// in GitHub's place. Each scenario must end as its GitHub twin does (demo.test.ts holds the same
// table for GitHub), with the MR for the pull request, and its log must replay verified.

/**
 * Every call booty's adapter made through gitbeaker landed on a route GitLab documents
 * (api-subset.json), and each reply carried the fields booty reads there.
 */
function expectDocumentedCalls(dir: string) {
  const calls = fs
    .readFileSync(path.join(dir, 'github', 'api-calls.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ServedCall);
  for (const call of calls) {
    const route = subset.routes.find((r) => r.method === call.method && r.path === call.route);
    expect(route, `${call.method} ${call.route} (${call.status})`).toBeDefined();
    if (call.status < 300 && call.fields) expect(call.fields).toEqual(expect.arrayContaining(route!.reads));
  }
}

describe('booty demo --forge gitlab', () => {
  it.each([
    ['pass', 'promoted', 1, false],
    ['refine', 'promoted', 2, false],
    ['exhausted', 'prOpened', 3, true],
    // A reviewer's comment on the MR's diff: a round answers with a commit, replied to and
    // resolved in its discussion.
    ['review', 'promoted', 2, false],
    // A pipeline fails on the MR's head: retried once, red again, a round fixes it, green makes it ready.
    ['ci-red', 'promoted', 2, false],
  ] as const)(
    'scenario %s ends %s after %i attempt(s) as on GitHub, and its log replays verified',
    async (scenario, state, attempts, draft) => {
      const dir = tempDir('booty-demo-gitlab-');
      const run = await booty(['demo', '--forge', 'gitlab', '--scenario', scenario, '--dir', dir, '--json']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const out = lastJson(run.stdout);
      expect(out).toMatchObject({ scenario, finalState: state, attempts, comments: 1, ok: true });
      if (scenario === 'review') {
        expect(out.rounds).toMatchObject([{ n: 1, triggers: ['feedback'], result: 'pushed' }]);
        expect(out.replies).toHaveLength(1);
        expect(out.replies[0].body).toContain(out.rounds[0].commit.slice(0, 7));
      }
      if (scenario === 'ci-red') {
        expect(out.rounds).toMatchObject([{ n: 1, triggers: ['ci'], result: 'pushed' }]);
        expect(out.ci).toMatchObject({ state: 'passed', reruns: 1, sha: out.pullRequest.headSha });
      }
      expect(out.pullRequest).toMatchObject({ number: 1, draft });
      expect(out.pullRequest.url).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/demo\/tiny-durations\/-\/merge_requests\/1$/,
      );

      const store = new SqliteEventStore(path.join(dir, 'booty.db'));
      const [job] = await store.listJobs();
      const rows = await store.readStream(out.jobId);
      await store.close();
      // The job names its forge: the key and the request.
      expect(job!.repo).toBe('gitlab:demo/tiny-durations');
      expect(rows[0]!.data).toMatchObject({
        repo: { forge: 'gitlab', owner: 'demo', name: 'tiny-durations' },
      });
      expect(rows.every((r) => isEventType(r.type) && r.schemaVersion === catalogue[r.type].version)).toBe(
        true,
      );

      expectDocumentedCalls(dir);

      const replay = await booty(['replay', out.jobId, '--verify', '--json', '--db', out.db]);
      expect(replay.code).toBe(0);
      expect(JSON.parse(replay.stdout)).toMatchObject({
        jobId: out.jobId,
        verified: true,
        finalState: state,
      });
    },
  );

  // The collaborator scenarios: a writer's @booty note on the unlabeled issue starts the job.
  it.each([
    ['mention', 'promoted'],
    ['question', 'answered'],
  ] as const)(
    'scenario %s ends %s as on GitHub, started by a note, and its log replays verified',
    async (scenario, state) => {
      const dir = tempDir(`booty-demo-gitlab-${scenario}-`);
      const run = await booty(['demo', '--forge', 'gitlab', '--scenario', scenario, '--dir', dir, '--json']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const out = lastJson(run.stdout);
      expect(out).toMatchObject({ scenario, finalState: state, ok: true });
      const issue = (
        JSON.parse(fs.readFileSync(path.join(dir, 'github', 'gitlab-state.json'), 'utf8')) as GlState
      ).projects[0]!.issues[0]!;
      // No label was ever put on the issue: the note started the job, and got its 👀.
      expect(issue.labels).toEqual([]);
      const asked = issue.notes.find((n) => n.author === 'monalisa')!;
      expect(asked.awards).toEqual(['booty-demo:eyes']);
      if (scenario === 'mention') {
        expect(out).toMatchObject({ attempts: 1, rounds: [], pullRequest: { number: 1, draft: false } });
      } else {
        expect(out).toMatchObject({
          attempts: 0,
          pullRequest: null,
          rounds: [{ n: 1, triggers: ['question'], result: 'answered', commit: null }],
        });
        const answers = issue.notes.filter((n) => n.body.includes('booty:reply'));
        expect(answers).toHaveLength(1);
        expect(answers[0]!.body).toContain('@monalisa');
        expect(answers[0]!.body).toMatch(
          /\/demo\/tiny-durations\/-\/blob\/[0-9a-f]{40}\/src\/duration\.js#L8-19/,
        );
        expect(answers[0]!.body).toContain('nothing was committed');
      }
      expectDocumentedCalls(dir);
      const replay = await booty(['replay', out.jobId, '--verify', '--json', '--db', out.db]);
      expect(replay.code).toBe(0);
      expect(JSON.parse(replay.stdout)).toMatchObject({
        jobId: out.jobId,
        verified: true,
        finalState: state,
      });
    },
  );

  it('refuses an unknown forge in one line', async () => {
    const r = await booty(['demo', '--forge', 'gitea']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--forge must be github or gitlab, not "gitea"');
  });
});
