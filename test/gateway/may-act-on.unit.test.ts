import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { classifyDelivery } from '../../src/forges/github/classify.js';
import { mayActOn } from '../../src/forges/github/classify-conversation.js';
import { intakeConfig } from '../../src/intake/intake-config.js';

// The catch-up asks GitHub to send again only deliveries that could give a job work. Checked
// against the classifiers themselves, on every example payload GitHub publishes, moved onto a
// booty branch, the trigger label and an @booty comment, so that only the event and action decide:
// what mayActOn leaves out, the classifiers ignore.

const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as {
  name: string;
  examples: Record<string, unknown>[];
}[];
const config = intakeConfig(loadEnv({ GITHUB_WEBHOOK_SECRET: 's', BOOTY_TRIGGER_LABEL: 'booty' }));

/** The payload as booty's own work would carry it: its branch, its label, a call on @booty. */
function asBootysOwn(payload: Record<string, unknown>) {
  const text = JSON.stringify(payload)
    .replace(/"(head_branch|ref)":"[^"]*"/g, '"$1":"booty/issue-1"')
    .replace(/"login":"[^"]*\[bot\]"/g, '"login":"octocat"')
    .replace(/"type":"Bot"/g, '"type":"User"');
  const p = JSON.parse(text);
  if (p.label) p.label.name = 'booty';
  if (p.comment) p.comment.body = '@booty retry';
  if (p.review) p.review.body = '@booty also cover weeks';
  if (p.branches) p.branches = [{ name: 'booty/issue-1' }];
  return p;
}

const cases = examples.flatMap((e) =>
  e.examples.map((p) => [e.name, (p.action as string | undefined) ?? null, p] as const),
);

describe('mayActOn', () => {
  it('takes what starts or wakes a job: labeled, a comment, a review, a PR closed or pushed, CI completed', () => {
    expect(
      [
        ['issues', 'labeled'],
        ['issues', 'closed'],
        ['issue_comment', 'created'],
        ['pull_request_review', 'submitted'],
        ['pull_request', 'synchronize'],
        ['check_suite', 'completed'],
        ['status', null],
      ].map(([event, action]) => mayActOn(event!, action ?? null)),
    ).toEqual([true, true, true, true, true, true, true]);
    expect(
      [
        ['issues', 'edited'],
        ['issue_comment', 'edited'],
        ['check_run', 'created'],
        ['pull_request', 'labeled'],
        ['pull_request_review_comment', 'created'],
        ['star', 'created'],
      ].map(([event, action]) => mayActOn(event!, action!)),
    ).toEqual([false, false, false, false, false, false]);
  });

  it.each(cases.filter(([event, action]) => !mayActOn(event, action)))(
    '%s.%s, left out, is ignored by the classifiers',
    (event, _action, payload) => {
      expect(classifyDelivery(event, asBootysOwn(payload), config).intent.kind).toBe('ignore');
    },
  );

  it('is checked on examples of every event it takes', () => {
    const taken = new Set(cases.filter(([e, a]) => mayActOn(e, a)).map(([e]) => e));
    expect([...taken].sort()).toEqual(
      [
        'check_run',
        'check_suite',
        'issue_comment',
        'issues',
        'pull_request',
        'pull_request_review',
        'status',
        'workflow_run',
      ].sort(),
    );
  });
});
