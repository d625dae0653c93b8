import { BootyError } from '../errors.js';
import { ciScript, runWorkflow } from './demo-ci.js';
import type { DemoRemotes } from './demo-remotes.js';
import { type Scenario, TEST_FILE } from './demo-script.js';

// The people and the CI around the pull request in the `review` and `ci-red` scenarios, played
// from the demo itself: a reviewer with write access who asks for one more case, and a CI runner
// that checks each new head of the PR (demo-ci.ts) on the simulator's GitHub Actions. Each step
// looks before it acts, so a resumed demo does nothing twice and still reaches the same end.

const REVIEWER = 'monalisa';
const REVIEW = {
  event: 'COMMENT',
  body: 'Nice work. One more case before I approve.',
  comments: [
    {
      path: TEST_FILE,
      line: 5,
      body: 'Please add a case for days ("2d"): the issue lists `d` among the units.',
    },
  ],
};

export interface ConversationWorld {
  scenario: Scenario;
  remotes: DemoRemotes;
  owner: string;
  repo: string;
  /** Resolves when booty has no job running or queued. */
  idle(): Promise<void>;
  note(text: string): void;
}

/**
 * Before the issue is labeled, in `ci-red`: the repository's CI has run on its default branch, as
 * in any repository with CI. booty reads that as "CI runs here", so nothing on its first head yet
 * means CI has not started, not that there is none.
 */
export async function prepareConversation(w: ConversationWorld): Promise<void> {
  if (w.scenario !== 'ci-red') return;
  const main = await w.remotes.headOf(w.owner, w.repo, 'main');
  await runCi(w, main, 'main');
  await finishCi(w);
}

/**
 * Once the job waits with its PR: what booty missed while it was stopped is sent again, the
 * reviewer reviews (once, and only a PR that is ready), and then booty and CI run until neither
 * has work left.
 */
export async function playConversation(
  w: ConversationWorld,
  pr: { number: number; draft: boolean },
): Promise<void> {
  await w.remotes.settled(); // a delivery still under way is not missed
  const missed = await w.remotes.redeliverMissed();
  if (missed) w.note(`redelivered ${missed} webhook(s) booty missed while it was stopped`);
  if (w.scenario === 'review' && !pr.draft) await review(w, pr.number);
  await runToRest(w, pr.number);
}

async function review(w: ConversationWorld, pr: number) {
  const done = (await w.remotes.reviews(w.owner, w.repo, pr)).some((r) => r.author === REVIEWER);
  if (done) return;
  const token = await w.remotes.person(w.owner, w.repo, REVIEWER, 'write');
  w.note(`${REVIEWER} (write access) reviews PR #${pr}: "${REVIEW.comments[0]!.body}" on ${TEST_FILE}`);
  if (w.remotes.review) return w.remotes.review(w.owner, w.repo, pr, REVIEWER, REVIEW);
  const url = `${w.remotes.githubUrl}/repos/${w.owner}/${w.repo}/pulls/${pr}/reviews`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(REVIEW),
  });
  if (!res.ok) {
    throw new BootyError('BOOTY_E_EFFECT_FAILED', {
      src: 'demo',
      reason: `the simulated GitHub refused the review: ${res.status} ${await res.text()}`,
    });
  }
}

/**
 * Lets GitHub and booty run until both are still. CI starts on a new head, and a run finishes,
 * only then, one at a time, so booty meets each result at rest and the job takes the same path
 * on every run.
 */
async function runToRest(w: ConversationWorld, pr: number) {
  for (;;) {
    const newest = await w.remotes.settled();
    await w.idle();
    // booty's work caused webhooks: they may wake the job again.
    if ((await w.remotes.settled()) !== newest) continue;
    if (w.scenario === 'ci-red' && (await ciOnHead(w, pr))) continue;
    if (!(await finishCi(w))) return;
  }
}

/** Finishes the CI runs that wait, saying how each ends; false when none waited. */
async function finishCi(w: ConversationWorld): Promise<boolean> {
  const waiting = (await w.remotes.workflowRuns(w.owner, w.repo)).filter((r) => r.status !== 'completed');
  for (const run of waiting) {
    const failing = run.plan[Math.min(run.attempt, run.plan.length) - 1]!.jobs.filter((j) =>
      j.steps.some((s) => s.conclusion === 'failure'),
    );
    const verdict = failing.length ? `${failing.map((j) => j.name).join(', ')} failed` : 'passed';
    w.note(`CI run ${run.runNumber}, attempt ${run.attempt}, on ${run.headSha.slice(0, 7)}: ${verdict}`);
  }
  if (waiting.length) await w.remotes.completeCi(w.owner, w.repo);
  return waiting.length > 0;
}

/** CI on the PR's head, once a push has moved it. */
async function ciOnHead(w: ConversationWorld, number: number): Promise<boolean> {
  const pr = (await w.remotes.pulls(w.owner, w.repo)).find((p) => p.number === number);
  return pr?.state === 'open' && runCi(w, pr.headSha, pr.head);
}

/** The runner's part: CI on a pushed commit, once, checked on the commit's own files. */
async function runCi(w: ConversationWorld, sha: string, branch: string): Promise<boolean> {
  if ((await w.remotes.workflowRuns(w.owner, w.repo)).some((r) => r.headSha === sha)) return false;
  const result = await runWorkflow(await w.remotes.filesAt(w.owner, w.repo, sha));
  w.note(`CI starts on ${sha.slice(0, 7)}, the head of ${branch}`);
  await w.remotes.startCi(w.owner, w.repo, { branch, script: ciScript(sha, result) });
  return true;
}
