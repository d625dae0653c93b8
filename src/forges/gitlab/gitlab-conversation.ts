import type { RepoRef } from '../../events/job-events.js';
import type { ConversationGate } from '../forge.js';
import { ignoredMarker, readerMarker } from '../markers.js';
import type { GitLabClients } from './clients.js';
import { gitlabError, httpStatus, mapped } from './gitlab-errors.js';
import { awardOnce, type Noteable, postOnce } from './notes.js';

// What intake asks GitLab before a job hears a note: may this person steer booty (Developer or
// more, GitLab's right to push), the 👀 award on their note, and a note to someone who may not.
// Permissions are kept for a while, as a job's conversation asks about the same people again.

/** GitLab's Developer access level: the least that may push, so the least that steers booty. */
export const DEVELOPER = 30;
const TTL_MS = 10 * 60_000;

export const READER_NOTE =
  'only people with the Developer role or more in this project can steer booty; a maintainer can repeat the request.';

interface Member {
  username: string;
  access_level: number;
}

export function gitlabConversation(clients: GitLabClients, now: () => number = Date.now): ConversationGate {
  const known = new Map<string, { level: number; until: number }>();
  async function level(repo: RepoRef, username: string): Promise<number> {
    const key = `${repo.owner}/${repo.name}#${username}`.toLowerCase();
    const cached = known.get(key);
    if (cached && cached.until > now()) return cached.level;
    let found = 0;
    try {
      // members/all counts inherited members (a group's) too, as GitLab's own permission check does.
      const members = (await clients.call((gl) =>
        gl.ProjectMembers.all(clients.project(repo), {
          includeInherited: true,
          query: username,
          perPage: 100,
          maxPages: 1,
        }),
      )) as Member[];
      found = members.find((m) => m.username.toLowerCase() === username.toLowerCase())?.access_level ?? 0;
    } catch (err) {
      if (httpStatus(err) !== 404) throw gitlabError(err);
    }
    known.set(key, { level: found, until: now() + TTL_MS });
    if (known.size > 1000) known.delete(known.keys().next().value!);
    return found;
  }
  const on = (target: { pr?: number | null; issue?: number | null }): Noteable =>
    target.pr != null
      ? { kind: 'merge_requests', iid: target.pr }
      : { kind: 'issues', iid: target.issue ?? 0 };
  return {
    isWriter: async (repo, _installationId, login) => (await level(repo, login)) >= DEVELOPER,
    // A diff note comes whole in its hook (classify-note.ts): there is no review to read apart.
    reviewComments: async () => [],
    react: async (repo, _installationId, _place, commentId, _comments, target) => {
      if (!target || (target.pr == null && target.issue == null)) return;
      const n = on(target);
      await awardOnce(clients, repo, { ...n, note: commentId }, 'eyes');
    },
    replyToReader: async (repo, _installationId, target, login, commentId) => {
      await postOnce(clients, repo, on(target), readerMarker(commentId), `@${login} ${READER_NOTE}`);
    },
    // A job on a merge request a person opened is GitHub's only, for now: none starts here.
    pullRequest: async () => null,
    mergedBy: async (repo, _installationId, pr) => {
      const mr = await mapped(() => clients.call((gl) => gl.MergeRequests.show(clients.project(repo), pr)));
      return mr.state === 'merged' ? (mr.merged_by?.username ?? mr.author?.username ?? 'someone') : null;
    },
    answerIgnored: async (repo, _installationId, target, login, commentId, why) => {
      await postOnce(clients, repo, on(target), ignoredMarker(commentId), `@${login} ${why}`);
    },
  };
}
