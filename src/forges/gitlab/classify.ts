import { z } from 'zod';
import type { RepoRef } from '../../events/job-events.js';
import { BRANCH_PREFIX, hasPlanLabel } from '../conventions.js';
import type { IntakeConfig, JobTarget } from '../forge.js';
import { parse } from '../payload.js';
import { classifyNote } from './classify-note.js';
import { type Classified, repoOfPath, wake } from './intents.js';

// What a GitLab delivery asks of booty, by its X-Gitlab-Event: an Issue Hook (the trigger label
// added or removed, the issue closed), a Note Hook (classify-note.ts), a Merge Request Hook (the MR
// merged, closed, reopened, pushed to, its draft toggled), and the Pipeline and Job Hooks (CI
// finished). Pure: the payload in, an Intent out; only the parts read here are validated.

const Project = z.object({ path_with_namespace: z.string().regex(/^[^/]+(\/[^/]+)+$/) });
const User = z.object({ username: z.string().min(1) });
const Label = z.object({ title: z.string() });
const LabelChange = z.object({ previous: z.array(Label), current: z.array(Label) });

const IssueHook = z.object({
  object_kind: z.string(),
  user: User,
  project: Project,
  object_attributes: z.object({
    iid: z.number().int().positive(),
    title: z.string(),
    description: z.string().nullish(),
    url: z.string().min(1),
    state: z.string(),
    action: z.string().nullish(),
  }),
  labels: z.array(Label).nullish(),
  changes: z.object({ labels: LabelChange.optional() }).nullish(),
});

const MergeRequestHook = z.object({
  user: User,
  project: Project,
  object_attributes: z.object({
    iid: z.number().int().positive(),
    source_branch: z.string(),
    action: z.string().nullish(),
    draft: z.boolean().nullish(),
    work_in_progress: z.boolean().nullish(),
    oldrev: z.string().nullish(),
    last_commit: z.object({ id: z.string() }).nullish(),
  }),
  changes: z
    .object({
      draft: z.object({ previous: z.boolean().nullish(), current: z.boolean().nullish() }).optional(),
      title: z.object({ previous: z.string().nullish(), current: z.string().nullish() }).optional(),
    })
    .nullish(),
});

const PipelineHook = z.object({
  project: Project,
  object_attributes: z.object({
    id: z.number().int(),
    ref: z.string().nullish(),
    tag: z.boolean().nullish(),
    sha: z.string().min(7),
    status: z.string(),
  }),
  merge_request: z.object({ iid: z.number().int(), source_branch: z.string() }).nullish(),
});

const JobHook = z.object({
  project: Project,
  ref: z.string().nullish(),
  tag: z.boolean().nullish(),
  sha: z.string().min(7),
  build_status: z.string(),
});

/** A CI status that is an end (GitLab's pipeline and job statuses): anything else is still under way. */
const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);

/** GitLab marks a draft by the title's prefix (`Draft:`, `[Draft]`, `(Draft)`). */
export const isDraftTitle = (title: string | null | undefined) =>
  /^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s|draft\s|wip:|\[wip\])/i.test(title ?? '');

export function classifyGitLab(event: string, payload: unknown, config: IntakeConfig): Classified {
  switch (event) {
    case 'Issue Hook':
      return classifyIssue(parse(IssueHook, event, payload), config);
    case 'Note Hook':
      return classifyNote(payload, config);
    case 'Merge Request Hook':
      return classifyMergeRequest(parse(MergeRequestHook, event, payload));
    case 'Pipeline Hook': {
      const p = parse(PipelineHook, event, payload);
      const { ref, tag, sha, status } = p.object_attributes;
      const branch = p.merge_request?.source_branch ?? (tag ? null : (ref ?? null));
      return ciFinished(repoOfPath(p.project.path_with_namespace), 'pipeline', sha, status, {
        branch,
        pr: p.merge_request?.iid ?? null,
      });
    }
    case 'Job Hook': {
      const p = parse(JobHook, event, payload);
      return ciFinished(repoOfPath(p.project.path_with_namespace), 'job', p.sha, p.build_status, {
        branch: p.tag ? null : (p.ref ?? null),
      });
    }
    default:
      return { action: null, intent: { kind: 'ignore', reason: `event ${event} starts nothing` } };
  }
}

function classifyIssue(p: z.infer<typeof IssueHook>, config: IntakeConfig): Classified {
  const action = p.object_attributes.action ?? null;
  const ignore = (reason: string): Classified => ({ action, intent: { kind: 'ignore', reason } });
  // Other work items (tasks, epics, incidents) come as `work_item`: booty answers issues.
  if (p.object_kind !== 'issue') return ignore(`a ${p.object_kind} starts nothing`);
  const repo = repoOfPath(p.project.path_with_namespace);
  const issue = p.object_attributes;
  const cancel = (reason: 'unlabeled' | 'closed'): Classified => ({
    action,
    intent: { kind: 'cancel', repo, issue: issue.iid, reason, sender: p.user.username },
  });
  if (action === 'close') return cancel('closed');
  // Label names compare regardless of case, as on GitHub.
  const trigger = config.triggerLabel.toLowerCase();
  const has = (labels: { title: string }[]) => labels.some((l) => l.title.toLowerCase() === trigger);
  const change = p.changes?.labels;
  // An issue opened with its labels says so in `changes` on newer GitLab; its labels say it anyway.
  const before = change?.previous ?? [];
  const now = change?.current ?? (action === 'open' ? (p.labels ?? []) : before);
  if (has(before) && !has(now)) return cancel('unlabeled');
  if (!(has(now) && !has(before))) return ignore(`issue.${action ?? 'update'} adds no trigger label`);
  if (!config.isAllowedRepo(`${repo.owner}/${repo.name}`))
    return ignore(`repository ${repo.owner}/${repo.name} is not allowed by BOOTY_REPOS`);
  if (issue.state === 'closed') return ignore('the issue is closed');
  return {
    action,
    intent: {
      kind: 'request',
      request: {
        repo,
        issue: { number: issue.iid, title: issue.title, body: issue.description ?? '', url: issue.url },
        triggerLabel: now.find((l) => l.title.toLowerCase() === trigger)!.title,
        sender: p.user.username,
        installationId: null,
        ...(hasPlanLabel(now.map((l) => l.title)) ? { planApproval: true } : {}),
      },
    },
  };
}

function classifyMergeRequest(p: z.infer<typeof MergeRequestHook>): Classified {
  const mr = p.object_attributes;
  const action = mr.action ?? null;
  const ignore = (reason: string): Classified => ({ action, intent: { kind: 'ignore', reason } });
  if (!mr.source_branch.startsWith(BRANCH_PREFIX)) return ignore('not a booty merge request');
  const repo = repoOfPath(p.project.path_with_namespace);
  const target = { pr: mr.iid, branch: mr.source_branch };
  const sender = p.user.username;
  const draft = mr.draft ?? mr.work_in_progress ?? false;
  const update = (
    kind: 'synchronize' | 'converted_to_draft' | 'ready_for_review' | 'reopened',
    head: string | null,
  ) => wake(action, repo, target, { type: 'PrUpdated', action: kind, headSha: head, draft, sender });
  switch (action) {
    case 'merge':
      return wake(action, repo, target, { type: 'PrClosed', merged: true, sender });
    case 'close':
      return wake(action, repo, target, { type: 'PrClosed', merged: false, sender });
    case 'reopen':
      return update('reopened', null);
    case 'update': {
      // New commits come with the head they replaced; a draft toggled with the change of it.
      if (mr.oldrev) return update('synchronize', mr.last_commit?.id ?? null);
      const was = draftChange(p.changes);
      if (was !== null && was !== draft)
        return update(draft ? 'converted_to_draft' : 'ready_for_review', null);
      return ignore('merge_request.update changes nothing for booty');
    }
    default:
      return ignore(`merge_request.${action ?? 'unknown'} changes nothing for booty`);
  }
}

/** Whether the MR was a draft before this update, if the update changed it; null when it did not. */
function draftChange(changes: z.infer<typeof MergeRequestHook>['changes']): boolean | null {
  if (changes?.draft && typeof changes.draft.previous === 'boolean') return changes.draft.previous;
  if (changes?.title) {
    const before = isDraftTitle(changes.title.previous);
    return before !== isDraftTitle(changes.title.current) ? before : null;
  }
  return null;
}

function ciFinished(
  repo: RepoRef,
  source: 'pipeline' | 'job',
  sha: string,
  status: string,
  target: JobTarget,
): Classified {
  const name = source === 'pipeline' ? 'pipeline' : 'build';
  if (!FINISHED.has(status))
    return {
      action: status,
      intent: { kind: 'ignore', reason: `${name}.${status}: booty waits for the result` },
    };
  if (!target.branch?.startsWith(BRANCH_PREFIX) && target.pr == null)
    return { action: status, intent: { kind: 'ignore', reason: 'not on a booty branch' } };
  return wake(status, repo, target, { type: 'CiCompleted', headSha: sha, source, conclusion: status });
}
