import { BootyError } from '../../errors.js';
import type { RepoRef } from '../../events/job-events.js';
import type { GitLabClients } from './clients.js';
import { gitlabError, httpStatus, mapped } from './gitlab-errors.js';

// Notes booty writes once: each carries a hidden marker and is looked for by it before it is
// posted, so an effect run again after a crash (or a lost reply) never says the same thing twice,
// as on GitHub (forges/github/marked-comment.ts). An issue's notes and an MR's are two lists.

export interface GlNote {
  id: number;
  body: string;
  system: boolean;
  author: { username: string };
  type?: string | null;
  position?: { new_path?: string | null; new_line?: number | null } | null;
}

/** An issue's or a merge request's notes. */
export type Noteable = { kind: 'issues' | 'merge_requests'; iid: number };

const PAGE = 100;

/** Every note, oldest first: gitbeaker follows the pages. */
export async function allNotes(clients: GitLabClients, repo: RepoRef, on: Noteable): Promise<GlNote[]> {
  const project = clients.project(repo);
  const options = { sort: 'asc', orderBy: 'created_at', perPage: PAGE } as const;
  return (await mapped(() =>
    clients.call(async (gl) =>
      on.kind === 'issues'
        ? await gl.IssueNotes.all(project, on.iid, options)
        : await gl.MergeRequestNotes.all(project, on.iid, options),
    ),
  )) as unknown as GlNote[];
}

/** Posts a note; its reply, the note made. */
export function createNote(clients: GitLabClients, repo: RepoRef, on: Noteable, body: string) {
  const project = clients.project(repo);
  return clients.call(
    async (gl): Promise<{ id: number }> =>
      on.kind === 'issues'
        ? await gl.IssueNotes.create(project, on.iid, body)
        : await gl.MergeRequestNotes.create(project, on.iid, body),
  );
}

/** Edits a note's body in place. */
export function editNote(clients: GitLabClients, repo: RepoRef, on: Noteable, noteId: number, body: string) {
  const project = clients.project(repo);
  return clients.call(async (gl) => {
    if (on.kind === 'issues') await gl.IssueNotes.edit(project, on.iid, noteId, { body });
    else await gl.MergeRequestNotes.edit(project, on.iid, noteId, { body });
  });
}

export const hasMarker = (notes: readonly { body?: string | null }[], marker: string) =>
  notes.some((n) => (n.body ?? '').includes(marker));

/**
 * A create is not idempotent, so it is sent once: when its reply is lost (a retryable failure),
 * `landed` looks for what it made, and only a create that did not land is an error.
 */
export async function createOnce(create: () => Promise<unknown>, landed: () => Promise<boolean>) {
  try {
    await create();
  } catch (err) {
    const mappedErr = gitlabError(err);
    if (mappedErr instanceof BootyError && mappedErr.retryable && (await landed())) return;
    throw mappedErr;
  }
}

/** Posts `marker` + body unless a note with the marker is there; true when it posted. */
export async function postOnce(
  clients: GitLabClients,
  repo: RepoRef,
  on: Noteable,
  marker: string,
  body: string,
  known?: readonly GlNote[],
): Promise<boolean> {
  const notes = known ?? (await allNotes(clients, repo, on));
  if (hasMarker(notes, marker)) return false;
  await createOnce(
    () => createNote(clients, repo, on, `${marker}\n${body}`),
    async () => hasMarker(await allNotes(clients, repo, on), marker),
  );
  return true;
}

/** The note with the marker, once it is there. */
export async function findMarked(
  clients: GitLabClients,
  repo: RepoRef,
  on: Noteable,
  marker: string,
): Promise<GlNote | null> {
  return (await allNotes(clients, repo, on)).find((n) => n.body.includes(marker)) ?? null;
}

/** What an award emoji goes on: an issue, or a note on an issue or a merge request. */
export type Awardable = { issue: number } | (Noteable & { note: number });

/**
 * An award emoji on an issue, or on a note. GitLab refuses a second award of the same emoji by the
 * same user (404 or 409, "has already been taken"), which is the first one landing: done.
 */
export async function awardOnce(
  clients: GitLabClients,
  repo: RepoRef,
  on: Awardable,
  name: string,
): Promise<void> {
  const project = clients.project(repo);
  try {
    await clients.call((gl) =>
      'issue' in on
        ? gl.IssueAwardEmojis.award(project, on.issue, name)
        : on.kind === 'issues'
          ? gl.IssueNoteAwardEmojis.award(project, on.iid, on.note, name)
          : gl.MergeRequestNoteAwardEmojis.award(project, on.iid, on.note, name),
    );
  } catch (err) {
    if (
      [404, 409, 422].includes(httpStatus(err) ?? 0) &&
      /already been taken/i.test(String((err as Error).message))
    )
      return;
    throw gitlabError(err);
  }
}
