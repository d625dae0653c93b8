import type { FeedbackPlace } from '../../events/conversation-events.js';
import type { RepoRef } from '../../events/job-events.js';
import { ignoredMarker, readerMarker } from '../markers.js';
import type { GitHubClients } from './clients.js';
import { githubError, httpStatus, mapped } from './github-errors.js';
import { postOnce } from './marked-comment.js';

// What the webhook gateway asks GitHub before a review or an `@booty` comment reaches a job: may
// this person steer booty (write access or more), a 👀 to say booty saw the request, and a note to
// someone who may not. A job's conversation asks about the same people again and again, so their
// permission is kept for a while.

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

const PERMISSIONS: readonly string[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none'];
const WRITERS: ReadonlySet<Permission> = new Set(['admin', 'maintain', 'write']);

export const isWriter = (permission: Permission) => WRITERS.has(permission);

export interface ConversationGateOptions {
  /** How long a permission is trusted; default 10 minutes. */
  ttlMs?: number;
  now?: () => number;
  /** Most permissions kept at once; default 1000. */
  maxEntries?: number;
}

export const READER_NOTE =
  'only people with write access to this repository can steer booty; a maintainer can repeat the request.';

export function conversationGate(clients: GitHubClients, options: ConversationGateOptions = {}) {
  const ttl = options.ttlMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  const max = options.maxEntries ?? 1000;
  const known = new Map<string, { permission: Permission; until: number }>();

  async function permission(
    repo: RepoRef,
    installationId: number | null,
    login: string,
  ): Promise<Permission> {
    const key = `${repo.owner}/${repo.name}#${login}`.toLowerCase();
    const cached = known.get(key);
    if (cached && cached.until > now()) return cached.permission;
    const gh = await clients.forRepo(repo, installationId);
    let found: Permission;
    try {
      const { data } = await gh.rest.repos.getCollaboratorPermissionLevel({
        owner: repo.owner,
        repo: repo.name,
        username: login,
      });
      found = permissionOf(data);
    } catch (err) {
      // GitHub answers 404 for a login that is no user at all: such a one may do nothing.
      if (httpStatus(err) !== 404) throw githubError(err);
      found = 'none';
    }
    known.delete(key);
    known.set(key, { permission: found, until: now() + ttl });
    // The oldest entry goes first (a Map keeps insertion order).
    while (known.size > max) known.delete(known.keys().next().value!);
    return found;
  }

  /** 👀 on the request. GitHub answers a repeated reaction with the one already there. */
  async function react(
    repo: RepoRef,
    installationId: number | null,
    place: FeedbackPlace,
    commentId: number,
    /** For a review: its comments' ids. GitHub has no reactions on a review, so its first comment gets it. */
    reviewComments: readonly number[] = [],
  ): Promise<boolean> {
    const gh = await clients.forRepo(repo, installationId);
    const where = { owner: repo.owner, repo: repo.name, content: 'eyes' as const };
    if (place === 'review') {
      const first = reviewComments[0];
      if (first === undefined) return false;
      await mapped(() =>
        gh.rest.reactions.createForPullRequestReviewComment({ ...where, comment_id: first }),
      );
      return true;
    }
    await mapped(() => gh.rest.reactions.createForIssueComment({ ...where, comment_id: commentId }));
    return true;
  }

  /** One note to a person about their comment, posted once however often it is asked for. */
  async function noteOnce(
    repo: RepoRef,
    installationId: number | null,
    issueNumber: number,
    marker: string,
    body: string,
  ): Promise<boolean> {
    const gh = await clients.forRepo(repo, installationId);
    return postOnce(gh, repo, issueNumber, marker, body);
  }

  /** Tells a reader that booty does not take requests from them. */
  const replyToReader = (
    repo: RepoRef,
    installationId: number | null,
    issueNumber: number,
    login: string,
    commentId: number,
  ) => noteOnce(repo, installationId, issueNumber, readerMarker(commentId), `@${login} ${READER_NOTE}`);

  /** Tells a writer why their command did nothing. */
  const answerIgnored = (
    repo: RepoRef,
    installationId: number | null,
    issueNumber: number,
    login: string,
    commentId: number,
    why: string,
  ) => noteOnce(repo, installationId, issueNumber, ignoredMarker(commentId), `@${login} ${why}`);

  return { permission, isWriter, react, replyToReader, answerIgnored };
}

export type ConversationGate = ReturnType<typeof conversationGate>;

/** role_name names the fine roles (maintain, triage); permission folds them into admin/write/read/none. */
function permissionOf(data: { permission: string; role_name?: string }): Permission {
  const role = data.role_name?.toLowerCase();
  if (role && PERMISSIONS.includes(role)) return role as Permission;
  // A custom role is named by its owner: its base permission says what it may do.
  return PERMISSIONS.includes(data.permission) ? (data.permission as Permission) : 'none';
}
