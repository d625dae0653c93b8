import { describe, expect, it } from 'vitest';
import type { IntakeConfig } from '../../../src/forges/forge.js';
import { classifyGitLab } from '../../../src/forges/gitlab/classify.js';
import { failingSection } from '../../../src/forges/gitlab/job-trace.js';
import { checkToken } from '../../../src/forges/gitlab/webhook-token.js';

// Given a GitLab hook's event and payload, when it is classified, then this is what booty does.

const config: IntakeConfig = {
  triggerLabel: 'booty',
  handle: () => 'booty',
  secrets: ['s'],
  isAllowedRepo: () => true,
  isSelfRepo: () => false,
};
const project = { id: 7, path_with_namespace: 'group/sub/project' };
const user = { username: 'root' };
const labels = (...titles: string[]) => titles.map((title) => ({ title }));

const issueHook = (action: string, previous: string[], current: string[], state = 'opened') => ({
  object_kind: 'issue',
  user,
  project,
  object_attributes: { iid: 4, title: 'T', description: 'B', url: 'http://x/4', state, action },
  labels: labels(...current),
  changes: { labels: { previous: labels(...previous), current: labels(...current) } },
});

const mrHook = (
  action: string,
  attrs: Record<string, unknown> = {},
  changes: Record<string, unknown> = {},
) => ({
  object_kind: 'merge_request',
  user,
  project,
  object_attributes: { iid: 2, source_branch: 'booty/issue-4', action, draft: false, ...attrs },
  changes,
});

const noteHook = (body: string, extra: Record<string, unknown> = {}) => ({
  object_kind: 'note',
  user: { username: 'maria' },
  project,
  object_attributes: { id: 55, note: body, noteable_type: 'Issue', action: 'create', ...extra },
  issue: { iid: 4 },
});

describe('GitLab hooks, classified', () => {
  it('an Issue Hook adding the trigger label requests a job on the nested project, plan label read', () => {
    const { intent } = classifyGitLab('Issue Hook', issueHook('update', [], ['booty', 'booty:plan']), config);
    expect(intent).toMatchObject({
      kind: 'request',
      request: {
        repo: { forge: 'gitlab', owner: 'group/sub', name: 'project' },
        issue: { number: 4, title: 'T', body: 'B' },
        triggerLabel: 'booty',
        planApproval: true,
      },
    });
  });

  it('the trigger label removed cancels; the issue closed cancels; another label does nothing', () => {
    expect(classifyGitLab('Issue Hook', issueHook('update', ['booty'], []), config).intent).toMatchObject({
      kind: 'cancel',
      reason: 'unlabeled',
      issue: 4,
    });
    expect(
      classifyGitLab('Issue Hook', issueHook('close', ['booty'], ['booty'], 'closed'), config).intent,
    ).toMatchObject({ kind: 'cancel', reason: 'closed' });
    expect(classifyGitLab('Issue Hook', issueHook('update', [], ['bug']), config).intent.kind).toBe('ignore');
  });

  it('a merge request merged, closed, pushed to, or its draft toggled wakes its job', () => {
    expect(classifyGitLab('Merge Request Hook', mrHook('merge'), config).intent).toMatchObject({
      kind: 'wake',
      target: { pr: 2, branch: 'booty/issue-4' },
      event: { type: 'PrClosed', merged: true },
    });
    expect(
      classifyGitLab(
        'Merge Request Hook',
        mrHook('update', { oldrev: 'a'.repeat(40), last_commit: { id: 'b'.repeat(40) } }),
        config,
      ).intent,
    ).toMatchObject({ event: { type: 'PrUpdated', action: 'synchronize', headSha: 'b'.repeat(40) } });
    expect(
      classifyGitLab(
        'Merge Request Hook',
        mrHook('update', { draft: false }, { draft: { previous: true, current: false } }),
        config,
      ).intent,
    ).toMatchObject({ event: { type: 'PrUpdated', action: 'ready_for_review', draft: false } });
    expect(
      classifyGitLab(
        'Merge Request Hook',
        mrHook('update', { draft: true }, { title: { previous: 'fix: x', current: 'Draft: fix: x' } }),
        config,
      ).intent,
    ).toMatchObject({ event: { type: 'PrUpdated', action: 'converted_to_draft' } });
    expect(classifyGitLab('Merge Request Hook', mrHook('open'), config).intent.kind).toBe('ignore');
    expect(
      classifyGitLab('Merge Request Hook', mrHook('merge', { source_branch: 'feature' }), config).intent.kind,
    ).toBe('ignore');
  });

  it('a note calling @booty with a command or a request wakes the issue’s job; other notes do nothing', () => {
    expect(classifyGitLab('Note Hook', noteHook('@booty retry'), config).intent).toMatchObject({
      kind: 'wake',
      target: { issue: 4 },
      event: { type: 'CommandReceived', command: 'retry', author: 'maria', commentId: 55 },
      needs: { writer: 'maria' },
    });
    expect(classifyGitLab('Note Hook', noteHook('@booty also handle days'), config).intent).toMatchObject({
      event: { type: 'FeedbackReceived', place: 'issue-comment', mention: true },
    });
    expect(classifyGitLab('Note Hook', noteHook('looks good'), config).intent.kind).toBe('ignore');
    expect(classifyGitLab('Note Hook', noteHook('@booty retry', { system: true }), config).intent.kind).toBe(
      'ignore',
    );
  });

  it('a call on @booty on a merge request a person opened is answered to its writer; other notes are not', () => {
    const onPersonMr = (body: string) =>
      classifyGitLab(
        'Note Hook',
        {
          ...noteHook(body, { noteable_type: 'MergeRequest' }),
          merge_request: { iid: 3, source_branch: 'fix-typo' },
        },
        config,
      ).intent;
    for (const body of ['@booty retry', '@booty also handle days', '@booty why does this fail?'])
      expect(onPersonMr(body), body).toEqual({
        kind: 'ignore',
        reason: 'not a booty merge request',
        answer: {
          repo: { forge: 'gitlab', owner: 'group/sub', name: 'project' },
          on: { pr: 3 },
          writer: 'maria',
          commentId: 55,
          text: expect.stringContaining('label the issue `booty`'),
        },
      });
    for (const body of ['looks good', 'ping @booty-maintainers'])
      expect(onPersonMr(body), body).toEqual({ kind: 'ignore', reason: 'not a booty merge request' });
  });

  it('a request or a question on an open issue carries the job it would start; a closed issue starts none', () => {
    const issue = {
      iid: 4,
      title: 'Parse durations',
      description: 'B',
      state: 'opened',
      url: 'https://gitlab.example.com/group/sub/project/-/issues/4',
      labels: [{ title: 'booty:plan' }],
    };
    const asked = (body: string, state = 'opened') =>
      classifyGitLab('Note Hook', { ...noteHook(body), issue: { ...issue, state } }, config).intent;
    expect(asked('@booty where are durations formatted?')).toMatchObject({
      kind: 'wake',
      event: { type: 'QuestionAsked', place: 'issue-comment', body: '@booty where are durations formatted?' },
      needs: {
        writer: 'maria',
        start: {
          issue: { number: 4, title: 'Parse durations', body: 'B', url: issue.url },
          pr: null,
          triggerLabel: 'booty',
          planApproval: true,
        },
      },
    });
    expect(asked('@booty please implement this.')).toMatchObject({
      event: { type: 'FeedbackReceived', mention: true },
      needs: { start: { issue: { number: 4 } } },
    });
    expect(asked('@booty please implement this.', 'closed')).toMatchObject({ needs: { start: null } });
  });

  it('a finished pipeline on a booty branch wakes the job; a running one waits', () => {
    const pipeline = (status: string) => ({
      object_kind: 'pipeline',
      project,
      object_attributes: { id: 9, ref: 'booty/issue-4', tag: false, sha: 'c'.repeat(40), status },
      merge_request: null,
    });
    expect(classifyGitLab('Pipeline Hook', pipeline('failed'), config).intent).toMatchObject({
      kind: 'wake',
      target: { branch: 'booty/issue-4' },
      event: { type: 'CiCompleted', source: 'pipeline', conclusion: 'failed', headSha: 'c'.repeat(40) },
    });
    expect(classifyGitLab('Pipeline Hook', pipeline('running'), config).intent.kind).toBe('ignore');
  });

  it('a hook booty does not read is ignored, named', () => {
    expect(classifyGitLab('Push Hook', {}, config).intent).toEqual({
      kind: 'ignore',
      reason: 'event Push Hook starts nothing',
    });
  });
});

describe('the GitLab webhook token', () => {
  it('matches the current or the previous secret, and names what is wrong otherwise', () => {
    expect(checkToken('b', ['a', 'b'])).toEqual({ ok: true });
    expect(checkToken('c', ['a', 'b'])).toEqual({ ok: false, reason: 'does not match' });
    expect(checkToken(undefined, ['a'])).toEqual({ ok: false, reason: 'is missing' });
  });

  it('keeps the digests of a list of secrets, and checks a new list against its own', () => {
    const before = ['a'];
    expect(checkToken('a', before)).toEqual({ ok: true });
    expect(checkToken('a', before)).toEqual({ ok: true });
    expect(checkToken('b', before)).toEqual({ ok: false, reason: 'does not match' });
    expect(checkToken('b', ['b'])).toEqual({ ok: true });
    expect(checkToken('a', ['b'])).toEqual({ ok: false, reason: 'does not match' });
  });
});

describe('a failed job’s trace', () => {
  it('is cut to the script section that failed, without the colours', () => {
    const trace = [
      '\u001b[0Ksection_start:1:prepare_script\r\u001b[0KPreparing environment',
      'Running on runner-1',
      '\u001b[0Ksection_end:1:prepare_script\r\u001b[0K',
      '\u001b[0Ksection_start:2:step_script\r\u001b[0KExecuting "step_script" stage of the job script',
      '$ npm test',
      'not ok 1 - parses days',
      '\u001b[0Ksection_end:2:step_script\r\u001b[0K',
      '\u001b[31;1mERROR: Job failed: exit code 1\u001b[0;m',
    ].join('\n');
    const cut = failingSection(trace);
    expect(cut).toContain('Executing "step_script" stage of the job script');
    expect(cut).toContain('not ok 1 - parses days');
    expect(cut).toContain('ERROR: Job failed: exit code 1');
    expect(cut).not.toContain('Running on runner-1');
    expect(cut).not.toContain('\u001b');
  });
});
