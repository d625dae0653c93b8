import { randomUUID } from 'node:crypto';
import type { GlHooks } from './gitlab-sim-hooks.js';
import {
  issueJson,
  jobJson,
  mrJson,
  noteJson,
  pipelineJson,
  projectJson,
  userJson,
} from './gitlab-sim-json.js';
import {
  type GlIssue,
  type GlMergeRequest,
  type GlNote,
  type GlProject,
  type GlStore,
  now,
} from './gitlab-sim-state.js';

// The REST v4 operations booty calls, as GitLab answers them: paths, status codes (201 for a
// create, 404 for what is not there, 400 for a missing field) and `{ message }` bodies on errors.

export interface Ctx {
  store: GlStore;
  hooks: GlHooks;
  base: string;
  /** The username the request's token belongs to. */
  user: string;
  /** The request's path, for the pagination links. */
  path: string;
  query: URLSearchParams;
  /** A branch's head in the project's bare repository, or null. */
  headOf: (p: GlProject, branch: string) => string | null;
  body: Record<string, unknown>;
}

export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string };

type Handler = (ctx: Ctx, p: GlProject, m: string[]) => Reply;

const ok = (json: unknown, status = 200): Reply => ({ status, json });
const notFound = (what: string): Reply => ({ status: 404, json: { message: `404 ${what} Not Found` } });
const bad = (message: string): Reply => ({ status: 400, json: { message } });

/**
 * One page of a list, with GitLab's offset pagination headers (doc/api/rest/_index.md, "Pagination
 * link header"): gitbeaker follows `Link: rel="next"` for the rest, and reads the `x-` headers.
 */
function page<T>(ctx: Ctx, items: T[]): Reply {
  const per = Math.min(Number(ctx.query.get('per_page') ?? 20) || 20, 100);
  const n = Math.max(Number(ctx.query.get('page') ?? 1) || 1, 1);
  const pages = Math.max(Math.ceil(items.length / per), 1);
  const slice = items.slice((n - 1) * per, n * per);
  const at = (k: number) => {
    const q = new URLSearchParams(ctx.query);
    q.set('page', String(k));
    q.set('per_page', String(per));
    return `<${ctx.base}${ctx.path}?${q}>`;
  };
  const links = [
    ...(n > 1 ? [`${at(n - 1)}; rel="prev"`] : []),
    ...(n < pages ? [`${at(n + 1)}; rel="next"`] : []),
    `${at(1)}; rel="first"`,
    `${at(pages)}; rel="last"`,
  ];
  return {
    status: 200,
    json: slice,
    headers: {
      link: links.join(', '),
      'x-page': String(n),
      'x-per-page': String(per),
      'x-next-page': n < pages ? String(n + 1) : '',
      'x-prev-page': n > 1 ? String(n - 1) : '',
      'x-total': String(items.length),
      'x-total-pages': String(pages),
    },
  };
}

const issueOf = (p: GlProject, iid: string) => p.issues.find((i) => i.iid === Number(iid));
const mrOf = (p: GlProject, iid: string) => p.mergeRequests.find((i) => i.iid === Number(iid));

export function newNote(
  store: GlStore,
  author: string,
  body: string,
  position: GlNote['position'] = null,
): GlNote {
  return {
    id: store.id(),
    body,
    author,
    system: false,
    created_at: now(),
    updated_at: now(),
    position,
    discussionId: randomUUID().replace(/-/g, ''),
    resolved: false,
    awards: [],
  };
}

function listNotes(ctx: Ctx, notes: GlNote[], noteable: { type: 'Issue' | 'MergeRequest'; iid: number }) {
  const sorted = ctx.query.get('sort') === 'desc' ? [...notes].reverse() : notes;
  return page(
    ctx,
    sorted.map((n) => noteJson(ctx.store, n, noteable)),
  );
}

function editNote(
  ctx: Ctx,
  notes: GlNote[],
  id: string,
  noteable: { type: 'Issue' | 'MergeRequest'; iid: number },
) {
  const n = notes.find((x) => x.id === Number(id));
  if (!n) return notFound('Note');
  if (typeof ctx.body.body !== 'string') return bad('body is missing');
  n.body = ctx.body.body;
  n.updated_at = now();
  ctx.store.save();
  return ok(noteJson(ctx.store, n, noteable));
}

/** An award emoji by the token's user; `has` says whether they gave this one already. */
function award(ctx: Ctx, has: (name: string) => boolean, record: (name: string) => void) {
  const name = ctx.body.name;
  if (typeof name !== 'string' || !name) return bad('name is missing');
  // GitLab refuses a second award of the same emoji by the same user.
  if (has(name)) return { status: 404, json: { message: { base: ['Award emoji has already been taken'] } } };
  record(name);
  ctx.store.save();
  return ok({ id: ctx.store.id(), name, user: userJson(ctx.store, ctx.user) }, 201);
}

function postNote(ctx: Ctx, p: GlProject, notes: GlNote[], on: { issue: GlIssue } | { mr: GlMergeRequest }) {
  if (typeof ctx.body.body !== 'string' || !ctx.body.body) return bad('body is missing');
  const n = newNote(ctx.store, ctx.user, ctx.body.body);
  notes.push(n);
  ctx.store.save();
  ctx.hooks.note(p, n, on);
  const noteable =
    'mr' in on
      ? { type: 'MergeRequest' as const, iid: on.mr.iid }
      : { type: 'Issue' as const, iid: on.issue.iid };
  return ok(noteJson(ctx.store, n, noteable), 201);
}

const isOpenState = (s: string | null, state: string) => !s || s === 'all' || s === state;

/** An award emoji on a note of an issue or of a merge request: the two differ in the path only. */
function noteAward(kind: 'issues' | 'merge_requests'): Handler {
  return (ctx, p, m) => {
    const parent = kind === 'issues' ? issueOf(p, m[1]!) : mrOf(p, m[1]!);
    const n = parent?.notes.find((x) => x.id === Number(m[2]));
    return n
      ? award(
          ctx,
          (name) => n.awards.includes(`${ctx.user}:${name}`),
          (name) => n.awards.push(`${ctx.user}:${name}`),
        )
      : notFound('Note');
  };
}

/**
 * Each route under `/projects/:id`, its path written as GitLab's docs write it (doc/api/*.md), so
 * the table reads against api-subset.json as it stands; a `:name` matches one path segment.
 */
export const routes: [string, string, Handler][] = [
  ['GET', '', (ctx, p) => ok(projectJson(p, ctx.base))],
  [
    'GET',
    '/members/all',
    (ctx, p) => {
      const q = ctx.query.get('query');
      const members = Object.entries(p.members)
        .filter(([u]) => !q || u === q)
        .map(([u, level]) => ({ ...userJson(ctx.store, u), access_level: level }));
      return page(ctx, members);
    },
  ],
  [
    'GET',
    '/issues/:issue_iid',
    (ctx, p, m) => {
      const i = issueOf(p, m[1]!);
      return i ? ok(issueJson(ctx.store, p, i, ctx.base)) : notFound('Issue');
    },
  ],
  [
    'GET',
    '/issues/:issue_iid/notes',
    (ctx, p, m) => {
      const i = issueOf(p, m[1]!);
      return i ? listNotes(ctx, i.notes, { type: 'Issue', iid: i.iid }) : notFound('Issue');
    },
  ],
  [
    'POST',
    '/issues/:issue_iid/notes',
    (ctx, p, m) => {
      const i = issueOf(p, m[1]!);
      return i ? postNote(ctx, p, i.notes, { issue: i }) : notFound('Issue');
    },
  ],
  [
    'PUT',
    '/issues/:issue_iid/notes/:note_id',
    (ctx, p, m) => {
      const i = issueOf(p, m[1]!);
      return i ? editNote(ctx, i.notes, m[2]!, { type: 'Issue', iid: i.iid }) : notFound('Issue');
    },
  ],
  [
    'GET',
    '/issues/:issue_iid/award_emoji',
    (ctx, p, m) => {
      const i = issueOf(p, m[1]!);
      return i
        ? page(
            ctx,
            i.awards.map((a, n) => ({ id: n + 1, name: a.name, user: userJson(ctx.store, a.user) })),
          )
        : notFound('Issue');
    },
  ],
  [
    'POST',
    '/issues/:issue_iid/award_emoji',
    (ctx, p, m) => {
      const i = issueOf(p, m[1]!);
      return i
        ? award(
            ctx,
            (name) => i.awards.some((a) => a.name === name && a.user === ctx.user),
            (name) => i.awards.push({ name, user: ctx.user }),
          )
        : notFound('Issue');
    },
  ],
  ['POST', '/issues/:issue_iid/notes/:note_id/award_emoji', noteAward('issues')],
  ['POST', '/merge_requests/:merge_request_iid/notes/:note_id/award_emoji', noteAward('merge_requests')],
  [
    'GET',
    '/merge_requests',
    (ctx, p) => {
      const branch = ctx.query.get('source_branch');
      const state = ctx.query.get('state');
      const list = p.mergeRequests
        .filter((mr) => (!branch || mr.source_branch === branch) && isOpenState(state, mr.state))
        .reverse()
        .map((mr) => mrJson(ctx.store, p, mr, ctx.base));
      return page(ctx, list);
    },
  ],
  [
    'POST',
    '/merge_requests',
    (ctx, p) => {
      const { source_branch, target_branch, title, description } = ctx.body as Record<
        string,
        string | undefined
      >;
      if (!source_branch || !target_branch || !title)
        return bad('source_branch, target_branch and title are required');
      if (p.mergeRequests.some((mr) => mr.state === 'opened' && mr.source_branch === source_branch))
        return {
          status: 409,
          json: {
            message: [
              `Another open merge request already exists for this source branch: !${p.mergeRequests.find((mr) => mr.state === 'opened' && mr.source_branch === source_branch)!.iid}`,
            ],
          },
        };
      const sha = ctx.headOf(p, source_branch);
      if (!sha) return bad(`source_branch ${source_branch} does not exist`);
      const draft = ctx.body.draft === true && !/^draft:/i.test(title);
      const mr: GlMergeRequest = {
        iid: p.mergeRequests.length + 1,
        title: draft ? `Draft: ${title}` : title,
        description: description ?? '',
        state: 'opened',
        source_branch,
        target_branch,
        sha,
        author: ctx.user,
        notes: [],
      };
      p.mergeRequests.push(mr);
      ctx.store.save();
      ctx.hooks.mergeRequest(p, mr, ctx.user, 'open');
      return ok(mrJson(ctx.store, p, mr, ctx.base), 201);
    },
  ],
  [
    'GET',
    '/merge_requests/:merge_request_iid',
    (ctx, p, m) => {
      const mr = mrOf(p, m[1]!);
      return mr ? ok(mrJson(ctx.store, p, mr, ctx.base)) : notFound('Merge Request');
    },
  ],
  [
    'PUT',
    '/merge_requests/:merge_request_iid',
    (ctx, p, m) => {
      const mr = mrOf(p, m[1]!);
      if (!mr) return notFound('Merge Request');
      const before = mr.title;
      if (typeof ctx.body.title === 'string') mr.title = ctx.body.title;
      if (typeof ctx.body.description === 'string') mr.description = ctx.body.description;
      if (ctx.body.state_event === 'close') mr.state = 'closed';
      ctx.store.save();
      const changes =
        before !== mr.title
          ? {
              title: { previous: before, current: mr.title },
              draft: { previous: isDraft(before), current: isDraft(mr.title) },
            }
          : {};
      ctx.hooks.mergeRequest(p, mr, ctx.user, ctx.body.state_event === 'close' ? 'close' : 'update', {
        changes,
      });
      return ok(mrJson(ctx.store, p, mr, ctx.base));
    },
  ],
  [
    'GET',
    '/merge_requests/:merge_request_iid/notes',
    (ctx, p, m) => {
      const mr = mrOf(p, m[1]!);
      return mr ? listNotes(ctx, mr.notes, { type: 'MergeRequest', iid: mr.iid }) : notFound('Merge Request');
    },
  ],
  [
    'POST',
    '/merge_requests/:merge_request_iid/notes',
    (ctx, p, m) => {
      const mr = mrOf(p, m[1]!);
      return mr ? postNote(ctx, p, mr.notes, { mr }) : notFound('Merge Request');
    },
  ],
  [
    'PUT',
    '/merge_requests/:merge_request_iid/notes/:note_id',
    (ctx, p, m) => {
      const mr = mrOf(p, m[1]!);
      return mr
        ? editNote(ctx, mr.notes, m[2]!, { type: 'MergeRequest', iid: mr.iid })
        : notFound('Merge Request');
    },
  ],
  [
    'GET',
    '/merge_requests/:merge_request_iid/discussions',
    (ctx, p, m) => {
      const mr = mrOf(p, m[1]!);
      if (!mr) return notFound('Merge Request');
      const ids = [...new Set(mr.notes.map((n) => n.discussionId))];
      const noteable = { type: 'MergeRequest' as const, iid: mr.iid };
      return page(
        ctx,
        ids.map((id) => {
          const notes = mr.notes.filter((n) => n.discussionId === id);
          return {
            id,
            individual_note: notes.length === 1 && notes[0]!.position === null,
            notes: notes.map((n) => noteJson(ctx.store, n, noteable)),
          };
        }),
      );
    },
  ],
  [
    'POST',
    '/merge_requests/:merge_request_iid/discussions/:discussion_id/notes',
    (ctx, p, m) => {
      const mr = mrOf(p, m[1]!);
      const root = mr?.notes.find((n) => n.discussionId === m[2]);
      if (!mr || !root) return notFound('Discussion');
      if (typeof ctx.body.body !== 'string' || !ctx.body.body) return bad('body is missing');
      const n = {
        ...newNote(ctx.store, ctx.user, ctx.body.body, root.position),
        discussionId: root.discussionId,
      };
      mr.notes.push(n);
      ctx.store.save();
      ctx.hooks.note(p, n, { mr });
      return ok(noteJson(ctx.store, n, { type: 'MergeRequest', iid: mr.iid }), 201);
    },
  ],
  [
    'PUT',
    '/merge_requests/:merge_request_iid/discussions/:discussion_id',
    (ctx, p, m) => {
      const mr = mrOf(p, m[1]!);
      const notes = mr?.notes.filter((n) => n.discussionId === m[2]) ?? [];
      if (!mr || !notes.length) return notFound('Discussion');
      const resolved = ctx.body.resolved === true || ctx.body.resolved === 'true';
      for (const n of notes) n.resolved = resolved;
      ctx.store.save();
      const noteable = { type: 'MergeRequest' as const, iid: mr.iid };
      return ok({ id: m[2], notes: notes.map((n) => noteJson(ctx.store, n, noteable)) });
    },
  ],
  [
    'GET',
    '/pipelines',
    (ctx, p) => {
      const sha = ctx.query.get('sha');
      const ref = ctx.query.get('ref');
      const list = p.pipelines.filter((pl) => (!sha || pl.sha === sha) && (!ref || pl.ref === ref)).reverse();
      return page(
        ctx,
        list.map((pl) => pipelineJson(p, pl, ctx.base)),
      );
    },
  ],
  [
    'GET',
    '/pipelines/:pipeline_id',
    (ctx, p, m) => {
      const pl = p.pipelines.find((x) => x.id === Number(m[1]));
      return pl ? ok(pipelineJson(p, pl, ctx.base)) : notFound('Pipeline');
    },
  ],
  [
    'GET',
    '/pipelines/:pipeline_id/jobs',
    (ctx, p, m) => {
      const pl = p.pipelines.find((x) => x.id === Number(m[1]));
      return pl
        ? page(
            ctx,
            pl.jobs.map((j) => jobJson(p, pl, j, ctx.base)),
          )
        : notFound('Pipeline');
    },
  ],
  [
    'POST',
    '/pipelines/:pipeline_id/retry',
    (ctx, p, m) => {
      const pl = p.pipelines.find((x) => x.id === Number(m[1]));
      if (!pl) return notFound('Pipeline');
      pl.retries += 1;
      pl.status = 'pending';
      for (const j of pl.jobs) if (j.status === 'failed') j.status = 'pending';
      ctx.store.save();
      return ok(pipelineJson(p, pl, ctx.base), 201);
    },
  ],
  [
    'GET',
    '/jobs/:job_id/trace',
    (_ctx, p, m) => {
      const job = p.pipelines.flatMap((pl) => pl.jobs).find((j) => j.id === Number(m[1]));
      return job ? { status: 200, text: job.trace } : notFound('Job');
    },
  ],
];

const isDraft = (title: string) => /^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s)/i.test(title);
