import { z } from 'zod';
import type { FeedbackPlace } from '../../events/conversation-events.js';
import { BRANCH_PREFIX, hasPlanLabel } from '../conventions.js';
import type { ConversationIntent, IntakeConfig, JobStart } from '../forge.js';
import { isBootysOwn } from '../markers.js';
import { parseMention } from '../mention.js';
import { parse } from '../payload.js';
import { type Classified, repoOfPath, wake } from './intents.js';

// A Note Hook: a comment on an issue or a merge request. On an issue, or in an MR's general
// discussion, booty hears `@booty` (a command, a request or a question; on an issue with no job
// yet, a request or a question starts one as the label would); a comment on the MR's diff is a
// review comment, which asks for a change as a GitHub review does, called by name or not, and its
// thread gets booty's reply. Who may steer booty is asked of GitLab later (needs.writer). On a
// merge request booty did not open, a call on @booty starts nothing, and its writer is told so.

const Note = z.object({
  object_kind: z.literal('note'),
  user: z.object({ username: z.string().min(1) }),
  project: z.object({ path_with_namespace: z.string().regex(/^[^/]+(\/[^/]+)+$/) }),
  object_attributes: z.object({
    id: z.number().int(),
    note: z.string().nullish(),
    noteable_type: z.string(),
    system: z.boolean().nullish(),
    action: z.string().nullish(),
    type: z.string().nullish(),
    position: z
      .object({
        new_path: z.string().nullish(),
        old_path: z.string().nullish(),
        new_line: z.number().int().nullish(),
        old_line: z.number().int().nullish(),
      })
      .nullish(),
  }),
  // The issue as the hook carries it (doc/user/project/integrations/webhook_events.md): enough
  // to start a job from a note where none waits.
  issue: z
    .object({
      iid: z.number().int().positive(),
      title: z.string().nullish(),
      description: z.string().nullish(),
      state: z.string().nullish(),
      url: z.string().nullish(),
      labels: z.array(z.object({ title: z.string() })).nullish(),
    })
    .nullish(),
  merge_request: z.object({ iid: z.number().int().positive(), source_branch: z.string() }).nullish(),
});

/** What a writer who calls on booty on a merge request a person opened is told. */
export const notOnPersonMr = (label: string) =>
  `booty does not yet work on merge requests it did not open on GitLab. Ask on the issue instead, where \`@booty <what to do>\` starts a job, or label the issue \`${label}\`.`;

/** A request or question on an open issue with no job starts one, as the label would. */
function jobStart(
  p: z.infer<typeof Note>,
  config: Pick<IntakeConfig, 'triggerLabel' | 'isAllowedRepo'>,
): JobStart | null {
  const issue = p.issue;
  if (!issue?.title || !issue.url || issue.state === 'closed') return null;
  if (!config.isAllowedRepo(p.project.path_with_namespace)) return null;
  return {
    issue: { number: issue.iid, title: issue.title, body: issue.description ?? '', url: issue.url },
    pr: null,
    triggerLabel: config.triggerLabel,
    planApproval: hasPlanLabel((issue.labels ?? []).map((l) => l.title)),
  };
}

export function classifyNote(
  payload: unknown,
  config: Pick<IntakeConfig, 'triggerLabel' | 'handle' | 'isAllowedRepo'>,
): Classified {
  const p = parse(Note, 'Note Hook', payload);
  const note = p.object_attributes;
  // Older GitLab sends no action: such a hook is a new note.
  const action = note.action ?? 'create';
  const ignore = (reason: string): Classified => ({ action, intent: { kind: 'ignore', reason } });
  if (action !== 'create') return ignore(`note.${action} asks nothing`);
  if (note.system) return ignore("GitLab's own notes ask nothing");
  const body = note.note ?? '';
  if (isBootysOwn(body)) return ignore("booty's own notes are ignored");
  const repo = repoOfPath(p.project.path_with_namespace);
  const author = p.user.username;
  const onMr = note.noteable_type === 'MergeRequest' ? p.merge_request : null;
  const onIssue = note.noteable_type === 'Issue' ? p.issue : null;
  if (!onMr && !onIssue) return ignore(`a note on a ${note.noteable_type} asks nothing`);
  const mention = parseMention(body, config.handle());
  if (onMr && !onMr.source_branch.startsWith(BRANCH_PREFIX)) {
    if (!mention) return ignore('not a booty merge request');
    // Called by name, a writer hears where booty does work instead (intake asks who wrote).
    const answer = {
      repo,
      on: { pr: onMr.iid },
      writer: author,
      commentId: note.id,
      text: notOnPersonMr(config.triggerLabel),
    };
    return { action, intent: { kind: 'ignore', reason: 'not a booty merge request', answer } };
  }

  const target = onMr ? { pr: onMr.iid, branch: onMr.source_branch } : { issue: onIssue!.iid };
  const onDiff = Boolean(onMr && note.position && (note.position.new_path || note.position.old_path));
  const place: FeedbackPlace = !onMr ? 'issue-comment' : onDiff ? 'review' : 'pr-comment';
  const needs: Partial<ConversationIntent['needs']> = {
    writer: author,
    react: { place, commentId: note.id },
  };
  if (mention && 'command' in mention) {
    return wake(
      action,
      repo,
      target,
      {
        type: 'CommandReceived',
        command: mention.command,
        place: onMr ? 'pr-comment' : 'issue-comment',
        author,
        commentId: note.id,
        ...(mention.text ? { text: mention.text } : {}),
      },
      { ...needs, react: { place: onMr ? 'pr-comment' : 'issue-comment', commentId: note.id } },
    );
  }
  if (onDiff) {
    const position = note.position!;
    const comment = {
      id: note.id,
      path: position.new_path ?? position.old_path ?? null,
      line: position.new_line ?? position.old_line ?? null,
      body,
    };
    return wake(
      action,
      repo,
      target,
      {
        type: 'FeedbackReceived',
        place,
        author,
        body: '',
        commentId: note.id,
        comments: [comment],
        mention: mention !== null,
      },
      needs,
    );
  }
  if (!mention) return ignore('the note does not call on @booty');
  // On an issue with no job, a writer's request or question starts one (intake asks who wrote).
  const start = onIssue ? jobStart(p, config) : null;
  if ('question' in mention)
    return wake(
      action,
      repo,
      target,
      { type: 'QuestionAsked', place, author, body: mention.question, commentId: note.id },
      { ...needs, start },
    );
  return wake(
    action,
    repo,
    target,
    {
      type: 'FeedbackReceived',
      place,
      author,
      body: mention.request,
      commentId: note.id,
      comments: [],
      mention: true,
    },
    { ...needs, start },
  );
}
