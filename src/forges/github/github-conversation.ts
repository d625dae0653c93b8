import { type ConversationGate, GONE_FORK } from '../forge.js';
import type { GitHubClients } from './clients.js';
import { conversationGate, isWriter } from './conversation-gate.js';
import { mapped } from './github-errors.js';

// What intake asks GitHub before a job hears a conversation event: the writer check
// (cached), a review's comments, the 👀, and the note to a reader.

export function githubConversation(clients: GitHubClients): ConversationGate {
  const gate = conversationGate(clients);
  const reviewComments: ConversationGate['reviewComments'] = async (repo, installationId, pr, reviewId) => {
    const gh = await clients.forRepo(repo, installationId);
    const listed = await mapped(() =>
      gh.rest.paginate(gh.rest.pulls.listCommentsForReview, {
        owner: repo.owner,
        repo: repo.name,
        pull_number: pr,
        review_id: reviewId,
        per_page: 100,
      }),
    );
    return listed.map((c) => ({
      id: c.id,
      path: c.path ?? null,
      line: (c as { line?: number | null }).line ?? c.original_position ?? null,
      body: c.body ?? '',
    }));
  };
  return {
    isWriter: async (repo, installationId, login) =>
      isWriter(await gate.permission(repo, installationId, login)),
    reviewComments,
    react: async (repo, installationId, place, commentId, comments) => {
      await gate.react(repo, installationId, place, commentId, comments);
    },
    replyToReader: async (repo, installationId, target, login, commentId) => {
      await gate.replyToReader(repo, installationId, target.pr ?? target.issue ?? 0, login, commentId);
    },
    mergedBy: async (repo, installationId, pr) => {
      const gh = await clients.forRepo(repo, installationId);
      const { data } = await mapped(() =>
        gh.rest.pulls.get({ owner: repo.owner, repo: repo.name, pull_number: pr }),
      );
      return data.merged ? (data.merged_by?.login ?? data.user?.login ?? 'someone') : null;
    },
    pullRequest: async (repo, installationId, pr) => {
      const gh = await clients.forRepo(repo, installationId);
      const { data } = await mapped(() =>
        gh.rest.pulls.get({ owner: repo.owner, repo: repo.name, pull_number: pr }),
      );
      if (data.state !== 'open') return null;
      const home = data.head.repo?.full_name ?? null;
      return {
        number: data.number,
        url: data.html_url,
        nodeId: data.node_id,
        draft: data.draft === true,
        author: data.user?.login ?? 'someone',
        headRef: data.head.ref,
        headSha: data.head.sha,
        // A deleted fork reads as one: booty cannot push to a repository it cannot name.
        fork: home === `${repo.owner}/${repo.name}` ? null : (home ?? GONE_FORK),
        maintainerCanModify: data.maintainer_can_modify === true,
      };
    },
    answerIgnored: async (repo, installationId, target, login, commentId, why) => {
      await gate.answerIgnored(repo, installationId, target.pr ?? target.issue ?? 0, login, commentId, why);
    },
  };
}
