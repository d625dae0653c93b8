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

export const notesPath = (clients: GitLabClients, repo: RepoRef, on: Noteable) =>
  `${clients.project(repo)}/${on.kind}/${on.iid}/notes`;

/** Every note, oldest first, across all pages. */
export async function allNotes(clients: GitLabClients, repo: RepoRef, on: Noteable): Promise<GlNote[]> {
  const out: GlNote[] = [];
  for (let page = 1; ; page++) {
    const batch = await mapped(() =>
      clients.api.get<GlNote[]>(notesPath(clients, repo, on), {
        sort: 'asc',
        order_by: 'created_at',
        per_page: PAGE,
        page,
      }),
    );
    out.push(...batch);
    if (batch.length < PAGE) return out;
  }
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
    () => clients.api.post(notesPath(clients, repo, on), { body: `${marker}\n${body}` }),
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

/**
 * An award emoji on an issue, or on a note. GitLab refuses a second award of the same emoji by the
 * same user (404 or 409, "has already been taken"), which is the first one landing: done.
 */
export async function awardOnce(clients: GitLabClients, path: string, name: string): Promise<void> {
  try {
    await clients.api.post(`${path}/award_emoji`, { name });
  } catch (err) {
    if (
      [404, 409, 422].includes(httpStatus(err) ?? 0) &&
      /already been taken/i.test(String((err as Error).message))
    )
      return;
    throw gitlabError(err);
  }
}
