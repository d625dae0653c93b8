import type { Escalated, PlanPosted } from '../../events/effect-results.js';
import type { EffectInput } from '../../machines/job-context.js';
import { escalationComment, PLAN_COMMANDS, planText } from '../../views/loop-render.js';
import { escalationMarker, planMarker, progressMarker } from '../markers.js';
import type { GitHubClient, GitHubClients } from './clients.js';
import { githubError, githubMessage, httpStatus, mapped } from './github-errors.js';
import { issueThread, postOnce } from './marked-comment.js';

// The refine loop's two effects on GitHub: the plan posted for approval, and asking the people
// `escalate` names for help when a job gives up. Both find before they create (a marker on the
// comment, the reviewers and assignees already there), so a re-run after a crash does nothing twice.

type Deps = { clients: GitHubClients };
type Result<T> = Omit<T, 'at'>;

export function postPlan({ clients }: Deps) {
  return async (input: EffectInput): Promise<Result<PlanPosted>> => {
    const { job } = input;
    const gh = await clients.forJob(job);
    const marker = planMarker(job.jobId, job.checkpoints.plans + 1);
    const body = `${planText(job.analysis!)}\n\n${PLAN_COMMANDS}`;
    await postOnce(gh, job.repo, job.issue.number, marker, body);
    const posted = (await issueThread(gh, job.repo, job.issue.number)).find((c) =>
      (c.body ?? '').includes(marker),
    ) as { id: number; html_url?: string } | undefined;
    return { commentId: posted?.id ?? 0, url: posted?.html_url ?? job.issue.url };
  };
}

/** `org/team` names a team; anything else a user. */
const split = (names: readonly string[]) => ({
  users: names.filter((n) => !n.includes('/')),
  teams: names.filter((n) => n.includes('/')),
});

export function escalate({ clients }: Deps) {
  return async (input: EffectInput): Promise<Result<Escalated>> => {
    const { job } = input;
    const gh = await clients.forJob(job);
    const { users, teams } = split(job.config?.escalate ?? []);
    const result = job.pr
      ? await requestReviews(gh, job.repo, job.pr.number, users, teams)
      : await assign(gh, job.repo, job.issue.number, users, teams);
    const thread = await issueThread(gh, job.repo, job.issue.number);
    const progress = thread.find((c) => (c.body ?? '').includes(progressMarker(job.jobId))) as
      | { html_url?: string }
      | undefined;
    const body = escalationComment({
      asked: [...result.users, ...result.teams],
      where: job.pr ? `the draft pull request #${job.pr.number}` : 'this issue',
      progressUrl: progress?.html_url ?? null,
    });
    await postOnce(gh, job.repo, job.issue.number, escalationMarker(job.jobId), body, thread);
    return result;
  };
}

type Refusal = Escalated['refused'][number];

/**
 * Reviewers on the PR. GitHub refuses the whole request (422) when one name cannot review (not a
 * collaborator, the PR's author); then each is asked alone, and those refused are noted.
 */
async function requestReviews(
  gh: GitHubClient,
  repo: { owner: string; name: string },
  number: number,
  users: string[],
  teams: string[],
): Promise<Result<Escalated>> {
  const where = { owner: repo.owner, repo: repo.name, pull_number: number };
  const { data } = await mapped(() => gh.rest.pulls.listRequestedReviewers(where));
  const already = new Set([
    ...data.users.map((u) => u.login.toLowerCase()),
    ...data.teams.map((t) => t.slug.toLowerCase()),
  ]);
  const slug = (t: string) => t.split('/')[1]!;
  const newUsers = users.filter((u) => !already.has(u.toLowerCase()));
  const newTeams = teams.filter((t) => !already.has(slug(t).toLowerCase()));
  const refused: Refusal[] = [];
  const ask = (reviewers: string[], team_reviewers: string[]) =>
    gh.rest.pulls.requestReviewers({ ...where, reviewers, team_reviewers: team_reviewers.map(slug) });
  if (newUsers.length + newTeams.length > 0) {
    try {
      await ask(newUsers, newTeams);
    } catch (err) {
      if (httpStatus(err) !== 422) throw githubError(err);
      for (const [name, isTeam] of [
        ...newUsers.map((u) => [u, false] as const),
        ...newTeams.map((t) => [t, true] as const),
      ]) {
        try {
          await (isTeam ? ask([], [name]) : ask([name], []));
        } catch (one) {
          if (httpStatus(one) !== 422) throw githubError(one);
          refused.push({ name, reason: githubMessage(one) });
        }
      }
    }
  }
  const no = new Set(refused.map((r) => r.name));
  return {
    on: 'pr',
    number,
    users: users.filter((u) => !no.has(u)),
    teams: teams.filter((t) => !no.has(t)),
    refused,
  };
}

/** Assignees of the issue: GitHub silently drops a login it cannot assign, so the answer is read. */
async function assign(
  gh: GitHubClient,
  repo: { owner: string; name: string },
  number: number,
  users: string[],
  teams: string[],
): Promise<Result<Escalated>> {
  const where = { owner: repo.owner, repo: repo.name, issue_number: number };
  let assigned = new Set<string>();
  if (users.length > 0) {
    const { data } = await mapped(() => gh.rest.issues.addAssignees({ ...where, assignees: users }));
    assigned = new Set((data.assignees ?? []).map((a) => a.login.toLowerCase()));
  }
  const refused: Refusal[] = users
    .filter((u) => !assigned.has(u.toLowerCase()))
    .map((name) => ({ name, reason: 'GitHub did not assign them (not a collaborator?)' }));
  return {
    on: 'issue',
    number,
    users: users.filter((u) => assigned.has(u.toLowerCase())),
    // A team cannot be assigned: it is named in the comment.
    teams,
    refused,
  };
}
