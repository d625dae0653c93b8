import { addCheckRun, addStatus, settleSuite, suiteFor } from './github-sim-checks.js';
import { emitCheckRun, emitCheckSuite, emitStatus } from './github-sim-ci-events.js';
import { resolveCommit } from './github-sim-git-objects.js';
import {
  checkRunJson,
  checkSuiteJson,
  combinedStatusJson,
  latestRuns,
  statusJson,
} from './github-sim-json-ci.js';
import type { OperationId } from './github-sim-operations.js';
import {
  type Handler,
  message,
  notFound,
  paged,
  pagedIn,
  type RouteContext,
  repoOf,
} from './github-sim-route-kit.js';
import type { SimRepo } from './github-sim-state.js';
import { bareOf } from './github-sim-world.js';

// Checks and commit statuses for a commit. Only a GitHub App may create check runs, in its own
// suite; anyone who can write may post a status. A ref (sha, branch, tag) names the commit.

const noCommit = (ctx: RouteContext, ref: string) =>
  message(422, `No commit found for SHA: ${ref}`, ctx.documentationUrl);

async function commitOf(ctx: RouteContext): Promise<{ repo: SimRepo; sha: string | null } | null> {
  const repo = repoOf(ctx);
  if (!repo) return null;
  return { repo, sha: await resolveCommit(bareOf(ctx.world, repo), ctx.path.ref) };
}

export const checksHandlers = {
  'checks/create': async (ctx) => {
    const repo = repoOf(ctx);
    if (!repo) return notFound(ctx);
    const token = ctx.caller.kind === 'token' ? ctx.caller.token : null;
    const app = ctx.store.state.apps.find((a) =>
      a.installations.some((i) => token?.kind === 'installation' && i.id === token.installationId),
    );
    if (!app) return message(403, 'You must authenticate via a GitHub App.', ctx.documentationUrl);
    const body = ctx.body;
    const sha = /^[0-9a-f]{40}$/i.test(body.head_sha)
      ? await resolveCommit(bareOf(ctx.world, repo), body.head_sha)
      : null;
    if (!sha) return noCommit(ctx, body.head_sha);
    const suite = await suiteFor(ctx.world, repo, app.id, sha);
    const status = body.conclusion ? 'completed' : (body.status ?? 'queued');
    const run = addCheckRun(ctx.world, repo, suite, {
      name: body.name,
      status: status === 'completed' || status === 'in_progress' ? status : 'queued',
      conclusion: body.conclusion ?? null,
      detailsUrl: body.details_url ?? null,
      externalId: body.external_id ?? null,
      output: body.output,
    });
    const suiteDone = settleSuite(repo, suite);
    ctx.store.save();
    void ctx.world.background.run('check_run created', async () => {
      await emitCheckRun(ctx.world, repo, run, 'created', ctx.login);
      if (suiteDone) await emitCheckSuite(ctx.world, repo, suite, ctx.login);
    });
    return { status: 201, body: checkRunJson(ctx.urls, repo, ctx.store.state.apps, run) };
  },

  'checks/get': (ctx) => {
    const repo = repoOf(ctx);
    const run = repo?.checkRuns.find((r) => r.id === ctx.path.check_run_id);
    if (!repo || !run) return notFound(ctx);
    return { status: 200, body: checkRunJson(ctx.urls, repo, ctx.store.state.apps, run) };
  },

  'checks/list-for-ref': async (ctx) => {
    const found = await commitOf(ctx);
    if (!found) return notFound(ctx);
    const { repo, sha } = found;
    if (!sha) return noCommit(ctx, ctx.path.ref);
    const q = ctx.query;
    let runs = repo.checkRuns.filter((r) => r.headSha === sha);
    if (q.filter !== 'all') runs = latestRuns(runs);
    runs = runs
      .filter((r) => !q.check_name || r.name === q.check_name)
      .filter((r) => !q.status || r.status === q.status)
      .filter((r) => !q.app_id || repo.checkSuites.find((s) => s.id === r.suiteId)?.appId === q.app_id);
    return pagedIn(
      ctx,
      'check_runs',
      runs.map((r) => checkRunJson(ctx.urls, repo, ctx.store.state.apps, r)),
    );
  },

  'checks/list-suites-for-ref': async (ctx) => {
    const found = await commitOf(ctx);
    if (!found) return notFound(ctx);
    const { repo, sha } = found;
    if (!sha) return noCommit(ctx, ctx.path.ref);
    const suites = repo.checkSuites
      .filter((s) => s.headSha === sha)
      .filter((s) => !ctx.query.app_id || s.appId === ctx.query.app_id)
      .filter(
        (s) =>
          !ctx.query.check_name ||
          repo.checkRuns.some((r) => r.suiteId === s.id && r.name === ctx.query.check_name),
      );
    return pagedIn(
      ctx,
      'check_suites',
      suites.map((s) => checkSuiteJson(ctx.urls, repo, ctx.store.state.apps, s)),
    );
  },

  'repos/create-commit-status': async (ctx) => {
    const repo = repoOf(ctx);
    if (!repo) return notFound(ctx);
    // GitHub takes a full sha here, not a branch or a short sha.
    const sha = /^[0-9a-f]{40}$/i.test(ctx.path.sha)
      ? await resolveCommit(bareOf(ctx.world, repo), ctx.path.sha)
      : null;
    if (!sha) return noCommit(ctx, ctx.path.sha);
    const status = addStatus(ctx.world, repo, {
      sha,
      state: ctx.body.state,
      context: ctx.body.context ?? 'default',
      description: ctx.body.description ?? null,
      targetUrl: ctx.body.target_url ?? null,
      creator: ctx.login,
    });
    ctx.store.save();
    void ctx.world.background.run('status', () => emitStatus(ctx.world, repo, status));
    return {
      status: 201,
      body: statusJson(ctx.urls, repo, status),
      headers: { location: `${ctx.urls.base}/repos/${repo.owner}/${repo.name}/statuses/${sha}` },
    };
  },

  'repos/get-combined-status-for-ref': async (ctx) => {
    const found = await commitOf(ctx);
    if (!found?.sha) return notFound(ctx);
    const combined = combinedStatusJson(ctx.urls, found.repo, found.sha);
    // The statuses are paged; the state and count are the whole commit's.
    const { body, headers } = paged(ctx, combined.statuses);
    return { status: 200, body: { ...combined, statuses: body }, headers };
  },

  'repos/list-commit-statuses-for-ref': async (ctx) => {
    const found = await commitOf(ctx);
    if (!found) return notFound(ctx);
    if (!found.sha) return noCommit(ctx, ctx.path.ref);
    const statuses = found.repo.statuses.filter((s) => s.sha === found.sha).reverse();
    return paged(
      ctx,
      statuses.map((s) => statusJson(ctx.urls, found.repo, s)),
    );
  },
} satisfies Partial<Record<OperationId, Handler>>;
