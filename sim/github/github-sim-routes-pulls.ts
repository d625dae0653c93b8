import { copyForkHead, forkOwnedBy, fullName } from './github-sim-forks.js';
import { bareDir } from './github-sim-git.js';
import { branchShas, diffStats } from './github-sim-git-objects.js';
import { githubTime } from './github-sim-json.js';
import { pullJson } from './github-sim-json-pulls.js';
import type { OperationId } from './github-sim-operations.js';
import {
  closePull,
  emitPullEvent,
  mergePull,
  pullOpened,
  refreshPull,
  reopenPull,
} from './github-sim-pull-lifecycle.js';
import {
  type Handler,
  message,
  notFound,
  paged,
  pullOf,
  repoOf,
  validationFailed,
} from './github-sim-route-kit.js';
import { nodeId, SimPull } from './github-sim-state.js';

// Pull requests: list, open, read, edit (title, body, base, closing and reopening) and merge, each
// change with its `pull_request` webhook. A PR follows its head branch as pushes move it.

export const pullHandlers = {
  'pulls/list': async (ctx) => {
    const repo = repoOf(ctx);
    if (!repo) return notFound(ctx);
    const state = ctx.query.state ?? 'open';
    const head = ctx.query.head as string | undefined;
    const pulls = repo.pulls
      .filter((p) => state === 'all' || p.state === state)
      .filter(
        (p) =>
          !head ||
          `${repo.owner}:${p.head}`.toLowerCase() === head.toLowerCase() ||
          (!head.includes(':') && p.head === head),
      )
      .filter((p) => !ctx.query.base || p.base === ctx.query.base)
      .sort((a, b) => (ctx.query.direction === 'asc' ? a.number - b.number : b.number - a.number));
    for (const p of pulls) await refreshPull(ctx.world, repo, p);
    return paged(
      ctx,
      pulls.map((p) => pullJson(ctx.urls, repo, p)),
    );
  },

  'pulls/create': async (ctx) => {
    const repo = repoOf(ctx);
    if (!repo) return notFound(ctx);
    const { body } = ctx;
    // `owner:branch` names a branch of that owner's fork; a bare branch, or the repository's own owner, this one's.
    const [, owner, branch] = /^(?:([^:]+):)?(.*)$/.exec(String(body.head))!;
    const fork =
      owner && owner.toLowerCase() !== repo.owner.toLowerCase() ? forkOwnedBy(ctx.store, repo, owner) : null;
    if (fork === undefined)
      return validationFailed(ctx, [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
    const head = branch!;
    if (!body.title && !body.issue)
      return validationFailed(ctx, [{ resource: 'PullRequest', field: 'title', code: 'missing_field' }]);
    const bare = bareDir(ctx.root, repo.owner, repo.name);
    const number = repo.nextNumber;
    const shas = await branchShas(bare, [head, body.base]);
    const headSha = fork
      ? await copyForkHead(ctx.world, repo, { number, head, headRepo: fullName(fork) })
      : shas.get(head);
    if (!headSha) return validationFailed(ctx, [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
    if (!shas.get(body.base))
      return validationFailed(ctx, [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
    const headRepo = fork ? fullName(fork) : null;
    if (
      repo.pulls.some(
        (p) => p.state === 'open' && p.head === head && p.headRepo === headRepo && p.base === body.base,
      )
    ) {
      return validationFailed(ctx, [
        {
          resource: 'PullRequest',
          code: 'custom',
          message: `A pull request already exists for ${fork?.owner ?? repo.owner}:${head}.`,
        },
      ]);
    }
    const stats = await diffStats(bare, shas.get(body.base)!, headSha);
    if (stats.commits === 0) {
      return validationFailed(ctx, [
        { resource: 'PullRequest', code: 'custom', message: `No commits between ${body.base} and ${head}` },
      ]);
    }
    const id = ctx.store.nextId();
    const pr = SimPull.parse({
      id,
      nodeId: nodeId('PR', id),
      number: repo.nextNumber++,
      title: body.title ?? '',
      body: body.body ?? '',
      head,
      base: body.base,
      headSha,
      baseSha: shas.get(body.base),
      draft: body.draft === true,
      state: 'open',
      author: ctx.login,
      headRepo,
      maintainerCanModify: headRepo !== null && body.maintainer_can_modify === true,
      createdAt: githubTime(ctx.now),
      updatedAt: githubTime(ctx.now),
      stats,
    });
    repo.pulls.push(pr);
    ctx.store.save();
    pullOpened(ctx.world, repo, pr, ctx.login);
    return {
      status: 201,
      body: pullJson(ctx.urls, repo, pr),
      headers: { location: `${ctx.urls.base}/repos/${repo.owner}/${repo.name}/pulls/${pr.number}` },
    };
  },

  'pulls/get': async (ctx) => {
    const found = pullOf(ctx);
    if (!found) return notFound(ctx);
    await refreshPull(ctx.world, found.repo, found.pr);
    return { status: 200, body: pullJson(ctx.urls, found.repo, found.pr) };
  },

  'pulls/update': async (ctx) => {
    const found = pullOf(ctx);
    if (!found) return notFound(ctx);
    const { repo, pr } = found;
    const changes: Record<string, { from: string }> = {};
    for (const field of ['title', 'body'] as const) {
      if (typeof ctx.body[field] === 'string' && ctx.body[field] !== pr[field]) {
        changes[field] = { from: pr[field] };
        pr[field] = ctx.body[field];
      }
    }
    // The author's "Allow edits by maintainers" box, on a fork's pull request.
    if (typeof ctx.body.maintainer_can_modify === 'boolean' && pr.headRepo)
      pr.maintainerCanModify = ctx.body.maintainer_can_modify;
    if (typeof ctx.body.base === 'string' && ctx.body.base !== pr.base) {
      changes.base = { from: pr.base };
      pr.base = ctx.body.base;
      await refreshPull(ctx.world, repo, pr);
    }
    pr.updatedAt = githubTime(ctx.now);
    ctx.store.save();
    if (Object.keys(changes).length)
      void emitPullEvent(ctx.world, repo, pr, 'edited', ctx.login, { changes });
    if (ctx.body.state === 'closed' && pr.state === 'open') void closePull(ctx.world, repo, pr, ctx.login);
    if (ctx.body.state === 'open' && pr.state === 'closed' && !pr.mergedAt) {
      void ctx.world.background.run('pull_request reopened', () =>
        reopenPull(ctx.world, repo, pr, ctx.login),
      );
    }
    return { status: 200, body: pullJson(ctx.urls, repo, pr) };
  },

  'pulls/merge': async (ctx) => {
    const found = pullOf(ctx);
    if (!found) return notFound(ctx);
    const method = ctx.body?.merge_method ?? 'merge';
    if (method === 'rebase') {
      return message(405, 'Rebase merges are not allowed on this repository.', ctx.documentationUrl);
    }
    const outcome = await mergePull(ctx.world, found.repo, found.pr, {
      sender: ctx.login,
      method,
      sha: ctx.body?.sha,
      title: ctx.body?.commit_title,
      message: ctx.body?.commit_message,
    });
    if (!outcome.merged) return message(outcome.status, outcome.message, ctx.documentationUrl);
    return {
      status: 200,
      body: { sha: outcome.sha, merged: true, message: 'Pull Request successfully merged' },
    };
  },
} satisfies Partial<Record<OperationId, Handler>>;
