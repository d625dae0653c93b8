import type { JobSnapshot } from '../machines/fold.js';
import { maxAttemptsOf } from '../machines/job-context.js';
import { stateName } from '../machines/job-states.js';
import { sandboxNotice } from '../views/test-evidence.js';
import type { DemoRemotes } from './demo-remotes.js';
import { expectedEnd, type Scenario } from './demo-script.js';

// What a demo job came to, read back from its snapshot and from GitHub, and whether it is the end
// the scenario promises.

export interface DemoRound {
  n: number;
  /** What started it: `feedback` (a review or a comment), `command` or `ci`. */
  triggers: string[];
  result: string | null;
  commit: string | null;
}

export interface DemoResult {
  jobId: string;
  finalState: string;
  attempts: number;
  maxAttempts: number;
  outcome: string | null;
  pullRequest: { number: number; draft: boolean; url: string; headSha: string } | null;
  comments: number;
  progressComment: string | null;
  /** The follow-up rounds after the PR opened. */
  rounds: DemoRound[];
  /** booty's replies in review threads. */
  replies: { inReplyTo: number; body: string }[];
  /** CI on the PR's head as booty last read it, and how many heads it re-ran. */
  ci: { state: string; sha: string; reruns: number } | null;
  db: string;
  /** Said when the tests ran without bubblewrap, else null. */
  sandboxNotice: string | null;
  /** The scenario reached the end it promises. */
  ok: boolean;
}

export async function demoResult(input: {
  jobId: string;
  snapshot: JobSnapshot;
  remotes: DemoRemotes;
  where: { owner: string; repo: string; issue: number; bot: string };
  db: string;
  scenario: Scenario;
}): Promise<DemoResult> {
  const { snapshot, remotes, scenario } = input;
  const { owner, repo, issue, bot } = input.where;
  const { context } = snapshot;
  const pull = (await remotes.pulls(owner, repo)).find((p) => p.number === context.pr?.number) ?? null;
  const comments = await remotes.comments(owner, repo, issue);
  const replies = pull
    ? (await remotes.reviewComments(owner, repo, pull.number))
        .filter((c) => c.author === bot && c.inReplyTo !== null)
        .map((c) => ({ inReplyTo: c.inReplyTo!, body: c.body }))
    : [];
  const rounds = context.conversation.rounds.map((r) => ({
    n: r.n,
    triggers: r.triggers.map((t) => t.kind),
    result: r.result,
    commit: r.commit,
  }));
  const { ci: read, reruns } = context.conversation;
  const ci = read && { state: read.state, sha: read.sha, reruns: reruns.length };
  const finalState = stateName(snapshot);
  const expected = expectedEnd(scenario, maxAttemptsOf(context));
  const roundsAsPromised =
    rounds.length === expected.rounds.length &&
    rounds.every(
      (r, i) =>
        r.result === (expected.rounds[i] === 'question' ? 'answered' : 'pushed') &&
        r.triggers[0] === expected.rounds[i],
    );
  // A pushed round's commit is the PR's head, and the request it answers (a review thread, or a
  // comment) hears its name; a question hears its answer, once.
  const last = rounds.at(-1);
  const said = [
    ...replies.map((r) => r.body),
    ...comments.filter((c) => c.author === bot).map((c) => c.body),
  ];
  const answered =
    last?.triggers[0] === 'question'
      ? said.filter((b) => b.includes('nothing was committed')).length === 1
      : !last?.commit ||
        (pull?.headSha === last.commit &&
          (last.triggers[0] !== 'feedback' || said.some((b) => b.includes(last.commit!.slice(0, 7)))));
  const ciAsPromised =
    !expected.ci ||
    (ci?.state === expected.ci.state && ci.sha === pull?.headSha && ci.reruns === expected.ci.reruns);
  return {
    jobId: input.jobId,
    finalState,
    attempts: context.attempt,
    maxAttempts: maxAttemptsOf(context),
    outcome: context.outcome?.message ?? null,
    pullRequest: pull && {
      number: pull.number,
      draft: pull.draft,
      url:
        remotes.pullUrl?.(owner, repo, pull.number) ??
        `${remotes.githubUrl}/${owner}/${repo}/pull/${pull.number}`,
      headSha: pull.headSha,
    },
    comments: comments.length,
    progressComment: comments.find((c) => c.body.includes('booty:progress'))?.body ?? null,
    rounds,
    replies,
    ci,
    db: input.db,
    // The demo sets no BOOTY_SANDBOX: its mode is the default, auto.
    sandboxNotice: sandboxNotice([context.baseline, ...context.attempts.map((a) => a.test)], {
      mode: 'auto',
      by: 'default',
    }),
    ok:
      finalState === expected.state &&
      context.attempt === expected.attempts &&
      (pull?.draft ?? null) === expected.draft &&
      roundsAsPromised &&
      answered &&
      ciAsPromised,
  };
}
