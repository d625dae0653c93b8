import { issueJson, teamJson, userJson } from './github-sim-json.js';
import { pullJson } from './github-sim-json-pulls.js';
import type { OperationId } from './github-sim-operations.js';
import { type Handler, notFound, pullOf, repoOf, unprocessable } from './github-sim-route-kit.js';
import type { SimRepo } from './github-sim-state.js';

// Asking people for help: reviewers requested on a pull request, and an issue's assignees. The
// state keeps who was asked, so a test can see it. As on GitHub, a reviewer who is not a
// collaborator fails the whole request (422), while an assignee who cannot be assigned is dropped
// in silence.

/** The owner, or anyone given a role other than none. */
const isCollaborator = (repo: SimRepo, login: string) =>
  login.toLowerCase() === repo.owner.toLowerCase() ||
  Object.entries(repo.roles).some(
    ([who, role]) => who.toLowerCase() === login.toLowerCase() && role !== 'none',
  );

export const escalationHandlers = {
  'pulls/request-reviewers': (ctx) => {
    const found = pullOf(ctx);
    if (!found) return notFound(ctx);
    const { repo, pr } = found;
    const users: string[] = ctx.body?.reviewers ?? [];
    const teams: string[] = ctx.body?.team_reviewers ?? [];
    if (users.some((u) => u.toLowerCase() === pr.author.toLowerCase()))
      return unprocessable(ctx, ['Review cannot be requested from pull request author.']);
    if (users.some((u) => !isCollaborator(repo, u)))
      return unprocessable(ctx, [
        `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${repo.owner}/${repo.name} repository.`,
      ]);
    for (const u of users) if (!pr.requestedReviewers.includes(u)) pr.requestedReviewers.push(u);
    for (const t of teams) if (!pr.requestedTeams.includes(t)) pr.requestedTeams.push(t);
    ctx.store.save();
    return { status: 201, body: pullJson(ctx.urls, repo, pr) };
  },

  'pulls/list-requested-reviewers': (ctx) => {
    const found = pullOf(ctx);
    if (!found) return notFound(ctx);
    const { repo, pr } = found;
    return {
      status: 200,
      body: {
        users: pr.requestedReviewers.map((u) => userJson(ctx.urls, u)),
        teams: pr.requestedTeams.map((t) => teamJson(ctx.urls, repo.owner, t)),
      },
    };
  },

  'issues/add-assignees': (ctx) => {
    const repo = repoOf(ctx);
    const issue = repo?.issues.find((i) => i.number === ctx.path.issue_number);
    if (!repo || !issue) return notFound(ctx);
    for (const login of (ctx.body?.assignees ?? []) as string[]) {
      if (isCollaborator(repo, login) && !issue.assignees.includes(login)) issue.assignees.push(login);
    }
    ctx.store.save();
    return { status: 201, body: issueJson(ctx.urls, repo, issue) };
  },
} satisfies Partial<Record<OperationId, Handler>>;
