import type { GlIssue, GlMergeRequest, GlNote, GlPipeline, GlProject, GlStore } from './gitlab-sim-state.js';

// The simulator's records as GitLab's REST v4 answers them (doc/api/issues.md, merge_requests.md,
// notes.md, pipelines.md, jobs.md): the fields booty reads, named and typed as GitLab names them.

export const isDraftTitle = (title: string) => /^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s)/i.test(title);

export const userJson = (store: GlStore, username: string) => {
  const u = store.user(username);
  return { id: u.id, username: u.username, name: u.username, state: 'active' };
};

export const projectJson = (p: GlProject, base: string) => ({
  id: p.id,
  name: p.path_with_namespace.split('/').at(-1),
  path: p.path_with_namespace.split('/').at(-1),
  path_with_namespace: p.path_with_namespace,
  default_branch: p.default_branch,
  web_url: `${base}/${p.path_with_namespace}`,
  http_url_to_repo: `${base}/${p.path_with_namespace}.git`,
});

export const issueJson = (store: GlStore, p: GlProject, i: GlIssue, base: string) => ({
  id: p.id * 100_000 + i.iid,
  iid: i.iid,
  project_id: p.id,
  title: i.title,
  description: i.description,
  state: i.state,
  labels: i.labels,
  author: userJson(store, i.author),
  web_url: `${base}/${p.path_with_namespace}/-/issues/${i.iid}`,
  user_notes_count: i.notes.filter((n) => !n.system).length,
});

export const mrJson = (store: GlStore, p: GlProject, mr: GlMergeRequest, base: string) => ({
  id: p.id * 100_000 + mr.iid,
  iid: mr.iid,
  project_id: p.id,
  title: mr.title,
  description: mr.description,
  state: mr.state,
  draft: isDraftTitle(mr.title),
  work_in_progress: isDraftTitle(mr.title),
  source_branch: mr.source_branch,
  target_branch: mr.target_branch,
  sha: mr.sha,
  author: userJson(store, mr.author),
  // Nothing merges in the simulator; GitLab sends the field, null until someone merges.
  merged_by: null,
  web_url: `${base}/${p.path_with_namespace}/-/merge_requests/${mr.iid}`,
});

export const noteJson = (
  store: GlStore,
  n: GlNote,
  noteable: { type: 'Issue' | 'MergeRequest'; iid: number },
) => ({
  id: n.id,
  type: n.position ? 'DiffNote' : null,
  body: n.body,
  author: userJson(store, n.author),
  created_at: n.created_at,
  updated_at: n.updated_at,
  system: n.system,
  noteable_type: noteable.type,
  noteable_iid: noteable.iid,
  resolvable: n.position !== null,
  resolved: n.resolved,
  ...(n.position ? { position: { position_type: 'text', ...n.position } } : {}),
});

export const pipelineJson = (p: GlProject, pl: GlPipeline, base: string) => ({
  id: pl.id,
  iid: pl.id,
  project_id: p.id,
  sha: pl.sha,
  ref: pl.ref,
  status: pl.status,
  source: 'push',
  web_url: `${base}/${p.path_with_namespace}/-/pipelines/${pl.id}`,
});

export const jobJson = (p: GlProject, pl: GlPipeline, j: GlPipeline['jobs'][number], base: string) => ({
  id: j.id,
  name: j.name,
  stage: 'test',
  status: j.status,
  ref: pl.ref,
  pipeline: { id: pl.id, sha: pl.sha, ref: pl.ref, status: pl.status },
  web_url: `${base}/${p.path_with_namespace}/-/jobs/${j.id}`,
});
