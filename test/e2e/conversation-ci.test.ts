import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ciGreen, ciRed } from '../../sim/github/github-sim-ci-script.js';
import { examplesDir } from '../../src/demo/demo-script.js';
import { tempDir } from '../support/job-harness.js';
import { type ConversationWorld, promotedJob } from './conversation-world.js';
import { OWNER, REPO } from './e2e-world.js';

// CI on a job's PR, end to end: the scripted GitHub Actions runs the workflow on the PR's head and
// sends its webhooks; booty reads the checks, re-runs failed jobs once, turns a ready PR back to
// draft, fixes red CI in a round and promotes the PR when CI passes. Real HTTP, git and tests.

let c: ConversationWorld | null = null;
afterEach(async () => {
  await c?.close();
  c = null;
});

const FAILURE = ciRed({ log: ['not ok 3 - parses days', "  error: 'Expected 172800000, got NaN'"] });

/** CI runs on the PR's head as it stands, as a push of it would start it. */
async function runCiOnHead(w: ConversationWorld) {
  await w.world.github.runCi(OWNER, REPO, { sha: w.pull().headSha, branch: w.branch });
  await w.quiet();
}

const runsOn = (w: ConversationWorld, sha: string) =>
  w.world.github.workflowRuns(OWNER, REPO).filter((r) => r.headSha === sha);
const jobsOf = (w: ConversationWorld, runId: number) =>
  w.world.github
    .jobs(OWNER, REPO)
    .filter((j) => j.runId === runId)
    .map((j) => [j.attempt, j.conclusion]);
/** The sample repository, with one round allowed to fix red CI. */
function oneCiFix(): string {
  const dir = tempDir('booty-e2e-repo-');
  fs.cpSync(path.join(examplesDir, 'sample-repo'), dir, { recursive: true });
  fs.appendFileSync(path.join(dir, '.github', 'booty.yml'), 'maxCiFixes: 1\n');
  return dir;
}

const demotedBody = (w: ConversationWorld, sha: string) =>
  `<!-- booty:demoted job=${w.jobId} sha=${sha} -->\nCI failed on ${sha.slice(0, 7)} (\`test\`, \`ci/simulated\`), so booty turned this pull request back to draft until it passes.`;
const demotions = (w: ConversationWorld) =>
  w.world.github.comments(OWNER, REPO, w.pr.number).filter((x) => x.body.includes('<!-- booty:demoted '));

describe('CI on a waiting job’s PR', () => {
  it('a flaky check that passes on re-run: re-run once, the PR never demoted, no round and no tokens', async () => {
    c = await promotedJob();
    const head = c.pr.headSha;
    const requests = c.world.anthropic.requests.length;
    const usage = (await c.job()).context.usage;
    c.world.github.scriptCi(OWNER, REPO, { branch: c.branch, heads: [[FAILURE, ciGreen()]] });
    await runCiOnHead(c);

    const job = await c.job();
    expect(job.value).toBe('promoted');
    expect(c.pull()).toMatchObject({ headSha: head, draft: false });
    const [run] = runsOn(c, head);
    expect(runsOn(c, head)).toHaveLength(1);
    expect(run).toMatchObject({ attempt: 2, status: 'completed', conclusion: 'success' });
    expect(jobsOf(c, run!.id)).toEqual([
      [1, 'failure'],
      [2, 'success'],
    ]);
    expect(job.context.conversation).toMatchObject({
      rounds: [],
      reruns: [head],
      ci: { sha: head, state: 'passed' },
    });
    // Red on a ready PR is re-run before anything is said or done: the re-run says it was flaky.
    expect(demotions(c)).toEqual([]);
    const drafts = c.world.github
      .deliveries()
      .filter((d) => d.event === 'pull_request' && d.action === 'converted_to_draft');
    expect(drafts).toEqual([]);
    expect(c.world.anthropic.requests.length).toBe(requests);
    expect(job.context.usage).toEqual(usage);
    await c.expectReplayVerified('promoted');
  });

  it('red CI on the ready PR: re-run, red again, back to draft with a comment, a round fixes it, green CI promotes it', async () => {
    c = await promotedJob();
    const head = c.pr.headSha;
    const calls = c.world.modelCalls('submit_changes');
    // Red on this head, re-run included; green on the next.
    c.world.github.scriptCi(OWNER, REPO, { branch: c.branch, heads: [[FAILURE], ciGreen()] });
    await runCiOnHead(c);

    const job = await c.job();
    const [run] = runsOn(c, head);
    expect(jobsOf(c, run!.id)).toEqual([
      [1, 'failure'],
      [2, 'failure'],
    ]);
    const { rounds } = job.context.conversation;
    expect(rounds).toHaveLength(1);
    expect(rounds[0]).toMatchObject({ n: 1, base: head, result: 'pushed', note: null });
    // The round answers CI: the failing job's log cut to its failing step, and the failed status.
    const rerunJob = c.world.github.jobs(OWNER, REPO).find((j) => j.runId === run!.id && j.attempt === 2)!;
    const runUrl = `${c.world.github.url}/${OWNER}/${REPO}/actions/runs/${run!.id}`;
    expect(rounds[0]!.triggers).toEqual([
      {
        kind: 'ci',
        sha: head,
        failing: [
          {
            name: 'test',
            kind: 'check',
            url: `${runUrl}/job/${rerunJob.id}`,
            detail:
              "Run npm test\nnot ok 3 - parses days\n  error: 'Expected 172800000, got NaN'\nError: Process completed with exit code 1.",
          },
          { name: 'ci/simulated', kind: 'status', url: runUrl, detail: 'Some checks failed' },
        ],
      },
    ]);
    const commit = rounds[0]!.commit!;
    expect(await c.git('rev-parse', `${commit}^`)).toBe(head);
    // The model was asked once more, with the failing step's log.
    expect(c.world.modelCalls('submit_changes')).toBe(calls + 1);
    const asked = c.world.anthropic
      .messages()
      .filter((m) => m.toolName === 'submit_changes')
      .at(-1)!;
    expect(asked.raw).toContain(`CI failed on ${head.slice(0, 7)}`);
    expect(asked.raw).toContain('not ok 3 - parses days');
    expect(asked.raw).toContain("error: 'Expected 172800000, got NaN'");
    // Green on the round's commit: ready for review again.
    expect(runsOn(c, commit).map((r) => r.conclusion)).toEqual(['success']);
    expect(job.value).toBe('promoted');
    expect(c.pull()).toMatchObject({ headSha: commit, draft: false });
    expect(job.context.conversation).toMatchObject({ reruns: [head], ci: { sha: commit, state: 'passed' } });
    // The "CI failed" comment turned out wrong once CI passed: it is edited, once, not left.
    const said = demotedBody(c, head).split('\n');
    const [demotion] = demotions(c);
    expect(demotions(c).map((x) => x.body)).toEqual([
      `${said[0]}\n<!-- booty:corrected -->\n~~${said[1]}~~\n\nCI passed on ${commit.slice(0, 7)}, and booty made this pull request ready for review again.`,
    ]);
    const edits = c.world.github
      .requests()
      .filter((r) => r.method === 'PATCH' && r.path.endsWith(`/issues/comments/${demotion!.id}`));
    expect(edits).toHaveLength(1);
    await c.expectReplayVerified('promoted');
  });

  it('red CI on the ready PR past maxCiFixes: back to draft with a comment, the round’s commit waits draft for its CI, and the job waits with the bound noted', async () => {
    c = await promotedJob({ repoDir: oneCiFix() });
    const head = c.pr.headSha;
    const calls = c.world.modelCalls('submit_changes');
    // Scripted by commit, so the round's commit has no CI until the test runs it.
    const red = [FAILURE, FAILURE];
    c.world.github.scriptCi(OWNER, REPO, { sha: head, heads: [red] });
    await runCiOnHead(c);

    let job = await c.job();
    const [round] = job.context.conversation.rounds;
    expect(job.context.conversation.rounds).toHaveLength(1);
    expect(round).toMatchObject({ n: 1, base: head, result: 'pushed' });
    const commit = round!.commit!;
    // No CI on the round's commit yet, while its parent ran CI: CI has not started, so the PR stays
    // draft until it has (booty's own tests passing are not enough).
    expect(job.value).toBe('prOpened');
    expect(c.pull()).toMatchObject({ headSha: commit, draft: true });
    expect(job.context.conversation.ci).toMatchObject({ sha: commit, state: 'pending', total: 0 });

    c.world.github.scriptCi(OWNER, REPO, { sha: commit, heads: [red] });
    await runCiOnHead(c);

    job = await c.job();
    expect(job.value).toBe('prOpened');
    expect(c.pull()).toMatchObject({ headSha: commit, draft: true });
    // Still draft from the first red: nothing to demote on the second.
    expect(demotions(c).map((x) => x.body)).toEqual([demotedBody(c, head)]);
    expect(runsOn(c, commit).map((r) => [r.attempt, r.conclusion])).toEqual([[2, 'failure']]);
    expect(job.context.conversation).toMatchObject({
      reruns: [head, commit],
      bounded: 'ciFixes',
      ci: { sha: commit, state: 'failed' },
    });
    expect(job.context.conversation.rounds).toHaveLength(1);
    expect(c.world.modelCalls('submit_changes')).toBe(calls + 1);
    const progress = c.world
      .comments()
      .find((x) => x.body.includes(`<!-- booty:progress job=${c!.jobId} -->`));
    expect(progress!.body).toContain(
      '**Bound reached:** no more rounds to fix CI (booty.yml); a writer’s `@booty` lifts it once.',
    );
    await c.expectReplayVerified('prOpened');
  });
});
