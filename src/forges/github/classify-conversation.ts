import { z } from 'zod';
import { type FeedbackPlace, PrUpdated } from '../../events/conversation-events.js';
import type { RepoRef } from '../../events/job-events.js';
import { BRANCH_PREFIX, PLAN_LABEL } from '../conventions.js';
import type { ConversationIntent, IntakeConfig, JobStart, JobTarget, WakeIntent } from '../forge.js';
import { isBootysOwn } from '../markers.js';
import { parseMention } from '../mention.js';
import { parse } from '../payload.js';

// The deliveries that wake a job with an open PR: comments, reviews, the PR itself and CI. Pure,
// like classify.ts: the payload in, what to do out. What needs GitHub (who may steer booty, a
// review's comments) is named in `needs` and done by the webhook route.

const Account = z.object({ login: z.string().min(1), type: z.string().optional() });
const Repository = z.object({ name: z.string().min(1), owner: Account });
const Installation = z.object({ id: z.number().int() }).nullish();
const PrRefs = z.array(z.object({ number: z.number().int() })).default([]);

const payloads = {
  issue_comment: z.object({
    action: z.string(),
    issue: z.object({
      number: z.number().int().positive(),
      pull_request: z.unknown().optional(),
      title: z.string().default(''),
      body: z.string().nullish(),
      html_url: z.string().default(''),
      state: z.string().optional(),
      labels: z.array(z.object({ name: z.string() })).nullish(),
    }),
    comment: z.object({ id: z.number().int(), body: z.string().nullish(), user: Account }),
    repository: Repository,
    installation: Installation,
  }),
  pull_request_review: z.object({
    action: z.string(),
    review: z.object({ id: z.number().int(), body: z.string().nullish(), state: z.string(), user: Account }),
    pull_request: z.object({ number: z.number().int(), head: z.object({ ref: z.string() }) }),
    repository: Repository,
    installation: Installation,
  }),
  pull_request: z.object({
    action: z.string(),
    pull_request: z.object({
      number: z.number().int(),
      merged: z.boolean().nullish(),
      draft: z.boolean().nullish(),
      head: z.object({ ref: z.string(), sha: z.string() }),
    }),
    repository: Repository,
    sender: Account,
  }),
  check_suite: z.object({
    action: z.string(),
    check_suite: z.object({
      head_sha: z.string().min(7),
      head_branch: z.string().nullish(),
      conclusion: z.string().nullish(),
      pull_requests: PrRefs,
    }),
    repository: Repository,
  }),
  check_run: z.object({
    action: z.string(),
    check_run: z.object({
      head_sha: z.string().min(7),
      conclusion: z.string().nullish(),
      check_suite: z.object({ head_branch: z.string().nullish() }).nullish(),
      pull_requests: PrRefs,
    }),
    repository: Repository,
  }),
  status: z.object({
    sha: z.string().min(7),
    state: z.string(),
    branches: z.array(z.object({ name: z.string() })).default([]),
    repository: Repository,
  }),
  workflow_run: z.object({
    action: z.string(),
    workflow_run: z.object({
      head_sha: z.string().min(7),
      head_branch: z.string().nullish(),
      conclusion: z.string().nullish(),
      pull_requests: PrRefs,
    }),
    repository: Repository,
  }),
};

export type ConversationEventName = keyof typeof payloads;
export const isConversationEvent = (event: string): event is ConversationEventName =>
  Object.hasOwn(payloads, event);

export type ConversationClassified =
  | { action: string | null; intent: ConversationIntent }
  | { action: string | null; intent: { kind: 'ignore'; reason: string } };

/** What happens to a PR that its job hears of, besides its closing. */
const PR_UPDATES: readonly string[] = PrUpdated.shape.action.options;
const isPrUpdate = (action: string): action is PrUpdated['action'] => PR_UPDATES.includes(action);
const isBot = (a: { login: string; type?: string }) => a.type === 'Bot' || a.login.endsWith('[bot]');
const repoOf = (r: z.infer<typeof Repository>): RepoRef => ({
  forge: 'github',
  owner: r.owner.login,
  name: r.name,
});

/** A delivery with its payload as parsed: switching on `event` narrows `p`. */
type Delivery = {
  [K in ConversationEventName]: { event: K; p: z.infer<(typeof payloads)[K]> };
}[ConversationEventName];

/** Where a writer's `@booty` may start a job when none waits: an open issue or PR of a repository booty serves. */
function jobStart(
  p: z.infer<(typeof payloads)['issue_comment']>,
  config: Pick<IntakeConfig, 'triggerLabel' | 'isAllowedRepo'>,
): JobStart | null {
  const repo = repoOf(p.repository);
  if (p.issue.state === 'closed' || !config.isAllowedRepo(`${repo.owner}/${repo.name}`)) return null;
  return {
    issue: { number: p.issue.number, title: p.issue.title, body: p.issue.body ?? '', url: p.issue.html_url },
    pr: p.issue.pull_request != null ? p.issue.number : null,
    triggerLabel: config.triggerLabel,
    planApproval: (p.issue.labels ?? []).some((l) => l.name.toLowerCase() === PLAN_LABEL),
  };
}

export function classifyConversation(
  event: ConversationEventName,
  payload: unknown,
  config: Pick<IntakeConfig, 'triggerLabel' | 'handle' | 'isAllowedRepo'>,
): ConversationClassified {
  const d = { event, p: parse(payloads[event], event, payload) } as Delivery;
  const action: string | null = 'action' in d.p ? d.p.action : null;
  const ignore = (reason: string) => ({ action, intent: { kind: 'ignore' as const, reason } });
  const wake = (
    repo: RepoRef,
    target: JobTarget,
    body: WakeIntent['event'],
    needs: Partial<ConversationIntent['needs']> = {},
  ) => ({
    action,
    intent: {
      kind: 'wake' as const,
      repo,
      target,
      event: body,
      needs: {
        writer: null,
        installationId: null,
        reviewComments: null,
        react: null,
        start: null,
        ...needs,
      },
    },
  });

  switch (d.event) {
    case 'issue_comment': {
      const { p } = d;
      if (p.action !== 'created') return ignore(`issue_comment.${p.action} asks nothing`);
      // booty's own comments included: booty never talks to itself.
      if (isBot(p.comment.user) || isBootysOwn(p.comment.body))
        return ignore("comments from bots are ignored, booty's own included");
      const mention = parseMention(p.comment.body ?? '', config.handle());
      if (!mention) return ignore('the comment does not call on @booty');
      const onPr = p.issue.pull_request != null;
      const place: FeedbackPlace = onPr ? 'pr-comment' : 'issue-comment';
      const author = p.comment.user.login as string;
      const needs = {
        writer: author,
        installationId: p.installation?.id ?? null,
        react: { place, commentId: p.comment.id },
      };
      const target = onPr ? { pr: p.issue.number } : { issue: p.issue.number };
      const repo = repoOf(p.repository);
      const said = { place, author, commentId: p.comment.id };
      if ('command' in mention) {
        return wake(
          repo,
          target,
          {
            type: 'CommandReceived',
            command: mention.command,
            ...said,
            ...(mention.text ? { text: mention.text } : {}),
          },
          needs,
        );
      }
      // A request or a question with no job to hear it starts one, as the label would.
      const start = jobStart(p, config);
      if ('question' in mention)
        return wake(
          repo,
          target,
          { type: 'QuestionAsked', ...said, body: mention.question },
          { ...needs, start },
        );
      return wake(
        repo,
        target,
        { type: 'FeedbackReceived', ...said, body: mention.request, comments: [], mention: true },
        { ...needs, start },
      );
    }
    case 'pull_request_review': {
      const { p } = d;
      if (p.action !== 'submitted') return ignore(`pull_request_review.${p.action} asks nothing`);
      if (isBot(p.review.user)) return ignore('reviews from bots are ignored');
      const ours = p.pull_request.head.ref.startsWith(BRANCH_PREFIX);
      const mention = parseMention(p.review.body ?? '', config.handle()) !== null;
      // On someone else's pull request, a review is for its author unless it calls on booty.
      if (!ours && !mention) return ignore('not a booty pull request');
      if (p.review.state.toLowerCase() === 'approved' && !p.review.body?.trim())
        return ignore('an approval asks for no change');
      const author = p.review.user.login as string;
      return wake(
        repoOf(p.repository),
        ours ? { pr: p.pull_request.number, branch: p.pull_request.head.ref } : { pr: p.pull_request.number },
        {
          type: 'FeedbackReceived',
          place: 'review',
          author,
          body: p.review.body ?? '',
          commentId: p.review.id,
          comments: [],
          mention,
        },
        {
          writer: author,
          installationId: p.installation?.id ?? null,
          reviewComments: { pr: p.pull_request.number, reviewId: p.review.id },
          react: { place: 'review', commentId: p.review.id },
        },
      );
    }
    case 'pull_request': {
      const { p } = d;
      const pr = p.pull_request;
      // Someone else's pull request is found by its number alone: a job may work on it.
      const target = pr.head.ref.startsWith(BRANCH_PREFIX)
        ? { pr: pr.number, branch: pr.head.ref }
        : { pr: pr.number };
      const sender = p.sender.login as string;
      if (p.action === 'closed')
        return wake(repoOf(p.repository), target, { type: 'PrClosed', merged: pr.merged === true, sender });
      if (isPrUpdate(p.action)) {
        return wake(repoOf(p.repository), target, {
          type: 'PrUpdated',
          action: p.action,
          headSha: p.action === 'synchronize' ? pr.head.sha : null,
          draft: pr.draft === true,
          sender,
        });
      }
      return ignore(`pull_request.${p.action} changes nothing for booty`);
    }
    case 'status': {
      const { p } = d;
      if (p.state === 'pending') return ignore('a pending status: booty waits for the result');
      const branch = p.branches.map((b) => b.name).find((n) => n.startsWith(BRANCH_PREFIX));
      if (!branch) return ignore('not on a booty branch');
      return wake(repoOf(p.repository), { branch }, ci(p.sha, 'status', p.state));
    }
    default: {
      // A CI run as the three events carry it: a check run names its branch through its suite.
      const run: {
        head_sha: string;
        head_branch?: string | null;
        check_suite?: { head_branch?: string | null } | null;
        conclusion?: string | null;
        pull_requests: { number: number }[];
      } =
        d.event === 'check_suite'
          ? d.p.check_suite
          : d.event === 'check_run'
            ? d.p.check_run
            : d.p.workflow_run;
      if (d.p.action !== 'completed') return ignore(`${event}.${d.p.action}: booty waits for the result`);
      const branch = run.head_branch ?? run.check_suite?.head_branch ?? null;
      const pr = run.pull_requests[0]?.number ?? null;
      if (!branch?.startsWith(BRANCH_PREFIX) && pr === null) return ignore('not on a booty branch');
      return wake(repoOf(d.p.repository), { branch, pr }, ci(run.head_sha, d.event, run.conclusion ?? null));
    }
  }
}

const ci = (
  headSha: string,
  source: 'check_suite' | 'check_run' | 'status' | 'workflow_run',
  conclusion: string | null,
) => ({
  type: 'CiCompleted' as const,
  headSha,
  source,
  conclusion,
});

/**
 * Whether a delivery of this event and action can ever give a job work, read from what the
 * classifiers above take: the rest (a check run created, a comment edited) is not worth asking
 * GitHub to send again.
 */
export function mayActOn(event: string, action: string | null): boolean {
  switch (event) {
    case 'issues':
      return action === 'labeled' || action === 'unlabeled' || action === 'closed';
    case 'issue_comment':
      return action === 'created';
    case 'pull_request_review':
      return action === 'submitted';
    case 'pull_request':
      return action === 'closed' || PR_UPDATES.includes(action ?? '');
    case 'status':
      return true;
    case 'check_suite':
    case 'check_run':
    case 'workflow_run':
      return action === 'completed';
    default:
      return false;
  }
}
