import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../../src/env.js';
import { classifyDelivery } from '../../../src/forges/github/classify.js';
import { intakeConfig } from '../../../src/intake/intake-config.js';

// Given a comment calling on booty, when it is classified, then intake is told what it asks (a
// request, a question or a command), and where a job may start when none waits.

const config = (env: Record<string, string> = {}) =>
  intakeConfig(loadEnv({ GITHUB_WEBHOOK_SECRET: 's', BOOTY_TRIGGER_LABEL: 'booty', ...env }));

function comment(body: string, issue: Record<string, unknown> = {}) {
  return {
    action: 'created',
    issue: {
      number: 7,
      title: 'Parse durations',
      body: 'Add parseDuration.',
      html_url: 'https://github.com/acme/widgets/issues/7',
      state: 'open',
      labels: [],
      ...issue,
    },
    comment: { id: 99, body, user: { login: 'maintainer', type: 'User' } },
    repository: { name: 'widgets', owner: { login: 'acme' } },
    installation: { id: 5 },
  };
}

const intentOf = (body: string, issue?: Record<string, unknown>, env?: Record<string, string>) =>
  classifyDelivery('issue_comment', comment(body, issue), config(env)).intent;

describe('a comment calling on booty', () => {
  it('a request on an open issue may start a job there, as the label would', () => {
    expect(intentOf('@booty please implement this')).toMatchObject({
      kind: 'wake',
      target: { issue: 7 },
      event: { type: 'FeedbackReceived', place: 'issue-comment', author: 'maintainer', mention: true },
      needs: {
        writer: 'maintainer',
        installationId: 5,
        start: {
          issue: { number: 7, title: 'Parse durations', body: 'Add parseDuration.' },
          pr: null,
          triggerLabel: 'booty',
          planApproval: false,
        },
      },
    });
  });

  it('a question is recorded as one, and may start a job too', () => {
    expect(intentOf('@booty why is this slow?')).toMatchObject({
      event: { type: 'QuestionAsked', body: '@booty why is this slow?', commentId: 99 },
      needs: { start: { pr: null } },
    });
  });

  it('on a pull request, the job would start on the pull request', () => {
    expect(intentOf('@booty add a test', { pull_request: {} })).toMatchObject({
      target: { pr: 7 },
      event: { place: 'pr-comment' },
      needs: { start: { pr: 7 } },
    });
  });

  it('a command starts nothing where no job waits', () => {
    expect(intentOf('@booty retry')).toMatchObject({
      event: { type: 'CommandReceived' },
      needs: { start: null },
    });
  });

  it('a closed issue, or a repository booty does not serve, starts nothing', () => {
    expect(intentOf('@booty add a test', { state: 'closed' })).toMatchObject({ needs: { start: null } });
    expect(intentOf('@booty add a test', {}, { BOOTY_REPOS: 'other/*' })).toMatchObject({
      needs: { start: null },
    });
  });

  it('the booty:plan label asks the job it starts for a plan first', () => {
    expect(intentOf('@booty add a test', { labels: [{ name: 'booty:plan' }] })).toMatchObject({
      needs: { start: { planApproval: true } },
    });
  });

  it.each(['ping @booty-maintainers', 'mail email@booty.dev', '> @booty add a test'])(
    '%j is ignored',
    (body) =>
      expect(intentOf(body)).toMatchObject({ kind: 'ignore', reason: 'the comment does not call on @booty' }),
  );

  it('calls by BOOTY_HANDLE, and not by booty then', () => {
    expect(intentOf('@booty-bot add a test', {}, { BOOTY_HANDLE: '@booty-bot' })).toMatchObject({
      kind: 'wake',
    });
    expect(intentOf('@booty add a test', {}, { BOOTY_HANDLE: 'booty-bot' })).toMatchObject({
      kind: 'ignore',
    });
  });
});
